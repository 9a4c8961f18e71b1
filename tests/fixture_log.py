# The kernel log of the fixture kernel of seed S (docs/linux-fixture.md,
# "The log"), computed from that page alone, not from dumpkit:
#   fixture_log.py SEED     prints it as makedumpfile --dump-dmesg does
# and, imported (tests/logring.py), records(seed) gives the eight
# (ts_nsec, text) pairs and line(ts, text) one printed record.
import sys

WHAT = ["Linux version 6.1.0-dumpkit (fixture)",
        "Command line: console=ttyS0 crashkernel=256M",
        "Memory: fixture machine, pattern in every page",
        "dumpkit: a record of two lines\nthe second line",
        "sysrq: Trigger a crash",
        "Kernel panic - not syncing: sysrq triggered crash",
        "CPU: 0 PID: 1 Comm: sh Not tainted 6.1.0-dumpkit",
        "Kernel Offset: disabled"]

def records(seed):
    return [((i + 1) ** 2 * 10 ** 9 // 7 + seed % 1000 * 1000,
             "seed %d record %d level %d: %s" % (seed, i, (seed + i) % 8, w))
            for i, w in enumerate(WHAT)]

def line(ts, text):
    """A record as printed: the time prefix, bytes outside printable
    ASCII as \\xNN, each further line indented by the prefix's width."""
    p = "[%5d.%06d] " % (ts // 10 ** 9, ts % 10 ** 9 // 1000)
    t = ''.join(c if c == '\n' or 0x20 <= ord(c) < 0x7f else '\\x%02x' % ord(c)
                for c in text)
    return p + t.replace('\n', '\n' + ' ' * len(p)) + '\n'

if __name__ == '__main__':
    sys.stdout.write(''.join(line(ts, t) for ts, t in records(int(sys.argv[1]))))
