#!/usr/bin/env python3
"""An independent implementation of docs/fixture-pattern.md.

Prints the pattern's bytes at a physical address as hex, so that the
end-to-end tests compare what dumpinfo reads with what the document
defines, not with what the library computes.

usage: pattern.py SEED ADDR LEN
"""
import sys

M = (1 << 64) - 1


def mix(z):
    z = (z + 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def byte_at(seed, pa):
    if mix(seed ^ 0x5A45524F50414745 ^ (pa >> 12)) % 4 != 0:
        return 0
    word = mix(seed ^ 0x7061747465726E00 ^ (pa & ~7 & M))
    return (word >> (8 * (pa & 7))) & 0xFF


def main():
    seed, addr, n = (int(a, 0) for a in sys.argv[1:4])
    print(" ".join("%02x" % byte_at(seed, addr + i) for i in range(n)))


if __name__ == "__main__":
    main()
