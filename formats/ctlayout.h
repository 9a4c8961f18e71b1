/*
 * ctlayout.h -- the C layout engine: where would a compiler of each ABI
 * put the fields of a header declared with native C types?  Not
 * installed; used by validate/dumplayout and the tests (issue 7).
 *
 * Each header layout table (struct dk_layout) records, per field, the C
 * type the original header declared (ctype).  The engine lays those
 * declarations out under the rules of one ABI (sizes and alignments of
 * the C types, FreeBSD's typedefs) and compares the result with the
 * fixed-width offsets the readers use.  The registry (layouts.c) lists
 * every header, the ABIs that wrote it and the differences that are
 * known and intended.
 */
#ifndef DK_CTLAYOUT_H
#define DK_CTLAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "private.h"

/* ---------------------------------------------------------------------- */
/* ABIs.                                                                  */

/* Size and alignment (inside a struct) of one C type, in bytes. */
struct dk_ctsa {
	uint8_t		size;
	uint8_t		align;
};

struct dk_ctabi {
	const char	*name;		/* "mips-n32" */
	const char	*desc;
	enum dk_endian	 endian;
	int		 freebsd;	/* 1: a FreeBSD kernel ran on it */
	struct dk_ctsa	 c_short, c_int, c_long, c_llong, c_ptr;
	struct dk_ctsa	 u64;		/* uint64_t inside a struct */
	/* FreeBSD's machine typedefs, each an unsigned integer of size: */
	uint8_t		 vm_offset;	/* vm_offset_t (= uintptr_t) */
	uint8_t		 vm_paddr;	/* vm_paddr_t */
	uint8_t		 vm_size;	/* vm_size_t */
	/* The oracle: a Debian cross-compiler and its flags (compile only). */
	const char	*cc;
	const char	*ccflags;
	const char	*note;		/* where the typedef facts come from */
};

/* Number of ABIs in the table. */
size_t		dk_ctabi_count(void);
/* ABI i, or NULL past the end. */
const struct dk_ctabi *dk_ctabi_at(size_t);
/* The ABI named name, or NULL. */
const struct dk_ctabi *dk_ctabi_by_name(const char *);
/*
 * What base type stands for on abi when it is a FreeBSD typedef that is
 * not standard C ("u_long": "unsigned long", "vm_offset_t": "uint32_t"
 * or "uint64_t"); NULL for standard C and <stdint.h> names.
 */
const char     *dk_ct_cdef(const char *base, const struct dk_ctabi *);
/* The i-th such typedef name ("u_long"), or NULL past the end. */
const char     *dk_ct_typedef_name(size_t);

/* ---------------------------------------------------------------------- */
/* The registry: every header, the ABIs that wrote it, known differences. */

/* A difference between native and table layout that is known and meant. */
struct dk_ctknown {
	const char	*abis;		/* space-separated ABI names */
	uint16_t	 versions;	/* DK_V() bits */
	uint16_t	 off;		/* first byte */
	uint16_t	 len;		/* bytes */
	const char	*why;
};

#define	DK_CT_MAXKNOWN	8

struct dk_ctentry {
	const struct dk_layout	*(*layout)(void);
	const char		*tag;	/* struct tag as declared */
	const char		*source;	/* the FreeBSD header */
	const char		*abis;	/* the ABIs that wrote it */
	struct dk_ctknown	 known[DK_CT_MAXKNOWN];	/* ends at len 0 */
	/* DK_V() bits of the versions this entry is about; 0: all. */
	uint16_t		 versions;
	/* The version of the structs its members name; 0: their first. */
	uint8_t			 nestv;
};

/* Number of entries in the registry. */
size_t		dk_ctreg_count(void);
/* Entry i, or NULL past the end. */
const struct dk_ctentry *dk_ctreg_at(size_t);
/*
 * The (first) entry of the layout named name ("minidump-amd64"), or
 * NULL; a layout whose versions were written on different ABIs has an
 * entry per group of versions.
 */
const struct dk_ctentry *dk_ctreg_by_name(const char *);
/* The entry whose struct tag is tag ("sparc64_dump_reg"), or NULL. */
const struct dk_ctentry *dk_ctreg_by_tag(const char *);
/* The DK_V() bits of every version any field of l has. */
uint16_t	dk_ct_versions(const struct dk_layout *);
/* The DK_V() bits of the versions entry e is about. */
uint16_t	dk_ctreg_versions(const struct dk_ctentry *);
/* Is abi one of the space-separated names in list? */
int		dk_ct_abi_in(const char *list, const char *abi);

/* ---------------------------------------------------------------------- */
/* Layout of a declaration.                                               */

#define	DK_CT_MAXF	64		/* members of one header */

/* A C type as a ctype string spells it: base type and array bound. */
struct dk_cttype {
	char		base[48];	/* "uint32_t", "struct NAME" */
	long		count;		/* -1 no array, 0 flexible [], else N */
	uint32_t	size;		/* of the whole member (0 flexible) */
	uint32_t	align;
	/* "struct NAME": the registry's layout and version it stands for */
	const struct dk_layout	*nested;
	unsigned		 nested_version;
};

/*
 * Parse ctype and give its size and alignment under abi; "struct NAME"
 * is looked up in the registry by tag (its first version).  DK_EINVAL
 * with a message naming the type when it is not one the engine knows.
 */
enum dk_status	dk_ct_type(const char *ctype, const struct dk_ctabi *,
		    struct dk_cttype *, struct dk_err *);

struct dk_ctmember {
	const struct dk_field	*f;	/* the table's row */
	struct dk_cttype	 t;
	uint32_t		 off;	/* natively */
	uint32_t		 pad;	/* padding the compiler puts after it */
};

struct dk_ctresult {
	struct dk_ctmember	m[DK_CT_MAXF];
	size_t			n;
	uint32_t		size;	/* sizeof */
	uint32_t		align;
	uint32_t		end;	/* end of the last member */
};

/*
 * Lay out version v of l as declared (rows with a ctype, in table
 * order; the compiler's padding rows have none) under abi.  A struct a
 * member names is taken in the version l's registry entry says (nestv).
 */
enum dk_status	dk_ct_compute(const struct dk_layout *, unsigned version,
		    const struct dk_ctabi *, struct dk_ctresult *,
		    struct dk_err *);

/* ---------------------------------------------------------------------- */
/* check: native declaration against the table, on every writer ABI.      */

enum dk_ctkind {
	DK_CT_MOVED,		/* a field is elsewhere natively */
	DK_CT_RESIZED,		/* a field has another size natively */
	DK_CT_HOLE,		/* padding the compiler inserts */
	DK_CT_TAIL,		/* tail padding to the struct's alignment */
	DK_CT_UNDOC,		/* native padding with no padding row */
	DK_CT_NOTPAD,		/* a padding row where natively there is none */
	DK_CT_SIZE,		/* sizeof differs from the table's size */
	DK_CT_STALE,		/* a known difference that no longer occurs */
	DK_CT_BADTYPE,		/* a ctype the engine cannot lay out */
};

struct dk_ctfinding {
	enum dk_ctkind	 kind;
	int		 known;		/* listed in the registry */
	const char	*layout;
	unsigned	 version;
	const char	*abi;
	const char	*field;		/* or NULL */
	uint32_t	 native_off, table_off;
	uint32_t	 native_size, table_size;
	const char	*why;		/* the registry's reason, if known */
	char		 msg[256];
};

/* Short name of a finding kind ("moved"). */
const char     *dk_ct_kind_name(enum dk_ctkind);

typedef void	(*dk_ct_cb)(void *, const struct dk_ctfinding *);

/*
 * Check every version of e's layout on every ABI in abis (NULL: the
 * ABIs that wrote it), calling cb for each finding; returns the number
 * of findings that are not known.
 */
size_t		dk_ct_check(const struct dk_ctentry *, const char *abis,
		    dk_ct_cb, void *);

#endif /* DK_CTLAYOUT_H */
