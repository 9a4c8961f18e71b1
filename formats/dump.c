/*
 * dump.c -- opening a dump and reading from it, whatever its format.
 *
 * THE list of formats is here.  Each format's probe looks at the first
 * bytes only and answers DK_OK (mine), DK_NOMATCH (try the next) or an
 * error, which stops the search: a damaged minidump is reported as a
 * damaged minidump, not as an unknown file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "compress.h"
#include "private.h"

static const struct dk_format_ops *const formats[] = {
	&dk_fmt_minidump,	/* "minidump" at offset 0 */
	&dk_fmt_elfmini,	/* an ELF core with dumpkit's notes */
	&dk_fmt_elf,		/* a FreeBSD full ELF core: EI_OSABI 255 */
	&dk_fmt_kdump,		/* "KDUMP   ", "DISKDUMP", "makedumpfile" at 0 */
	&dk_fmt_vmcore,		/* a Linux ELF vmcore: its kernel notes */
	&dk_fmt_sparc64,	/* no magic: last, claimed by --arch/--kernel/hint */
};

/*
 * THE list of containers: layers around a dump stream.  They are peeled
 * off first, outermost first (a device image holding a zstd stream
 * holding a minidump), at most DK_MAX_LAYERS deep; the formats are then
 * probed on the innermost stream.
 */
static const struct dk_container_ops *const containers[] = {
	&dk_ctr_kdh,		/* kerneldumpheader: leader/trailer, or leading */
	&dk_ctr_gzip,		/* 1f 8b 08: gzip members (vmcore.N.gz) */
	&dk_ctr_zstd,		/* 28 b5 2f fd: zstd frames (vmcore.N.zst) */
	&dk_ctr_xz,		/* fd 37 7a 58 5a 00: xz streams */
};

#define	DK_READ_CHUNK	(1u << 20)

const struct dk_format_ops *
dk_format_at(size_t i)
{
	return i < DK_ARRAY_LEN(formats) ? formats[i] : NULL;
}

const struct dk_container_ops *
dk_container_at(size_t i)
{
	return i < DK_ARRAY_LEN(containers) ? containers[i] : NULL;
}

/*
 * Peel the containers off d->src, then open it with fmt, or with the
 * first format of formats[] that claims or recognises it.
 */
static enum dk_status
open_format(struct dk_dump *d, const struct dk_format_ops *fmt,
    const struct dk_open_opts *o, struct dk_err *err)
{
	const char *t = getenv("DUMPKIT_TRACE");
	enum dk_status st;

	d->trace = t != NULL && *t != '\0' && strcmp(t, "0") != 0;
	for (;;) {
		size_t i;

		for (i = 0; i < DK_ARRAY_LEN(containers); i++) {
			st = containers[i]->probe(&d->src, err);
			if (st == DK_NOMATCH)
				continue;
			if (st != DK_OK)
				return st;
			break;
		}
		if (i == DK_ARRAY_LEN(containers))
			break;
		if (d->nlayers == DK_MAX_LAYERS)
			return dk_err_set(err, DK_ELIMIT, "%s: more than %d "
			    "containers nested (the next is %s)", d->src.name,
			    DK_MAX_LAYERS, containers[i]->name);
		DK_TRACE(d, "container %s at base %#jx, %ju bytes",
		    containers[i]->name, (uintmax_t)d->src.base,
		    (uintmax_t)d->src.size);
		if ((st = containers[i]->open(d, o, err)) != DK_OK)
			return st;
	}
	if (fmt != NULL) {
		d->fmt = fmt;
		d->info.file_size = d->src.size;
		return fmt->open(d, o, err);
	}
	for (size_t i = 0; i < DK_ARRAY_LEN(formats); i++) {
		st = formats[i]->claim != NULL && formats[i]->claim(d, o) ?
		    DK_OK : formats[i]->probe(&d->src, err);
		if (st == DK_NOMATCH)
			continue;
		if (st != DK_OK)
			return st;
		DK_TRACE(d, "format %s, %ju bytes", formats[i]->name,
		    (uintmax_t)d->src.size);
		d->fmt = formats[i];
		d->info.file_size = d->src.size;
		return formats[i]->open(d, o, err);
	}
	if ((st = dk_recognize(&d->src, err)) != DK_NOMATCH)
		return st;
	if (d->nlayers > 0)
		return dk_err_at(err, DK_EUNSUP, d->src.name, 0, "not a dump "
		    "format dumpkit knows (expected \"minidump\" or an ELF "
		    "core) in the payload of the %s (%s)",
		    d->layers[d->nlayers - 1].info.kind,
		    d->layers[d->nlayers - 1].info.desc);
	return dk_err_at(err, DK_EUNSUP, d->src.name, 0, "not a dump format "
	    "dumpkit knows (expected \"minidump\" or an ELF core with dumpkit "
	    "notes; a sparc64 dump, which has no magic, is taken as such only "
	    "with --arch sparc64 unless it is exactly what the kernel writes)");
}

/*
 * Open the format (fmt, or the one found), then check that a set of
 * files is a format's that has sets and that the lists were filled.
 */
static enum dk_status
open_src(struct dk_dump *d, const struct dk_format_ops *fmt,
    const struct dk_open_opts *o, struct dk_err *err)
{
	enum dk_status st = open_format(d, fmt, o, err);

	if (st == DK_OK && o != NULL && o->page_size != 0 &&
	    d->info.page_size != o->page_size) {
		const struct dk_attr *a = dk_attr_find(d, "page_size_source");

		if (d->info.page_size == 0)
			return dk_err_set(err, DK_EINVAL, "%s: --page-size "
			    "%u: a %s has no use for one", d->src.name,
			    (unsigned)o->page_size, d->fmt->desc);
		return dk_err_set(err, DK_EINVAL, "%s: --page-size %u, but "
		    "the dump's page size is %u (%s)", d->src.name,
		    (unsigned)o->page_size, (unsigned)d->info.page_size,
		    a != NULL && a->str != NULL ? a->str : d->fmt->desc);
	}
	if (st == DK_OK && d->npart > 1 && !d->fmt->sets)
		return dk_err_set(err, DK_EUNSUP, "%s: %zu files were given, "
		    "but a %s is one file", d->src.name, d->npart,
		    d->fmt->desc);
	if (st == DK_OK && d->oom)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	return st;
}

static struct dk_dump *
new_dump(const char *name, struct dk_err *err)
{
	struct dk_dump *d = calloc(1, sizeof(*d) + strlen(name) + 1);

	if (d == NULL) {
		dk_err_set(err, DK_ENOMEM, "%s: out of memory", name);
		return NULL;
	}
	d->src.fd = -1;
	d->src.name = strcpy((char *)(d + 1), name);
	d->dmap_i = SIZE_MAX;
	return d;
}

/* dk_open_fmt and dk_open_stream: stream 1 allows a one-pass stream. */
static enum dk_status
open_paths(const struct dk_format_ops *fmt, const char *const *paths,
    size_t n, int stream, const struct dk_open_opts *o, struct dk_dump **dp,
    struct dk_err *err)
{
	struct dk_dump *d;
	enum dk_status st;

	dk_err_clear(err);
	*dp = NULL;
	if (n == 0)
		return dk_err_set(err, DK_EINVAL, "no file to open");
	/* Messages name standard input so, not "-". */
	if ((d = new_dump(strcmp(paths[0], "-") == 0 ? "standard input" :
	    paths[0], err)) == NULL)
		return DK_ENOMEM;
	if ((st = dk_src_open(paths[0], &d->src, err)) != DK_OK) {
		dk_close(d);
		return st;
	}
	if (n > 1) {
		/* part[0] is the first file as opened; d->src owns its fd. */
		if ((d->part = calloc(n, sizeof(*d->part))) == NULL) {
			dk_close(d);
			return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    paths[0]);
		}
		d->part[0] = d->src;
		for (d->npart = 1; d->npart < n; d->npart++) {
			struct dk_src *p = &d->part[d->npart];

			p->fd = -1;
			p->name = paths[d->npart];
			p->index = (uint32_t)d->npart;
			if ((st = dk_src_open(p->name, p, err)) != DK_OK) {
				d->npart++;	/* so that dk_close closes it */
				dk_close(d);
				return st;
			}
		}
	}
	d->stream_ok = stream;
	if ((st = open_src(d, fmt, o, err)) != DK_OK) {
		dk_close(d);
		return st;
	}
	*dp = d;
	return DK_OK;
}

enum dk_status
dk_open_fmt(const struct dk_format_ops *fmt, const char *const *paths,
    size_t n, const struct dk_open_opts *o, struct dk_dump **dp,
    struct dk_err *err)
{
	return open_paths(fmt, paths, n, 0, o, dp, err);
}

enum dk_status
dk_open_stream(const char *const *paths, size_t n,
    const struct dk_open_opts *o, struct dk_dump **dp, struct dk_err *err)
{
	return open_paths(NULL, paths, n, 1, o, dp, err);
}

DK_EXPORT enum dk_status
dk_open_set(const char *const *paths, size_t n, const struct dk_open_opts *o,
    struct dk_dump **dp, struct dk_err *err)
{
	return dk_open_fmt(NULL, paths, n, o, dp, err);
}

DK_EXPORT enum dk_status
dk_open(const char *path, const struct dk_open_opts *o, struct dk_dump **dp,
    struct dk_err *err)
{
	return dk_open_fmt(NULL, &path, 1, o, dp, err);
}

DK_EXPORT size_t
dk_nfiles(const struct dk_dump *d)
{
	return d->npart > 1 ? d->npart : 1;
}

DK_EXPORT const char *
dk_file(const struct dk_dump *d, size_t i)
{
	if (i == 0)
		return (const char *)(d + 1);	/* the name new_dump kept */
	return i < d->npart ? d->part[i].name : NULL;
}

enum dk_status
dk_part_pread(const struct dk_dump *d, size_t i, void *buf, size_t len,
    uint64_t off, const char *what, struct dk_err *err)
{
	const struct dk_src *s = i == 0 ? (d->nlayers > 0 ?
	    &d->layers[0].outer : &d->src) : i < d->npart ? &d->part[i] : NULL;

	if (s == NULL)
		return dk_err_set(err, DK_EINVAL, "%s: no file %zu in a dump "
		    "of %zu", d->src.name, i, dk_nfiles(d));
	return dk_src_pread(s, buf, len, off, what, err);
}

DK_EXPORT enum dk_status
dk_read_stream(struct dk_dump *d, uint64_t off, void *buf, size_t len,
    struct dk_err *err)
{
	return dk_src_pread(&d->src, buf, len, off, "stream", err);
}

DK_EXPORT enum dk_status
dk_open_mem(const void *buf, size_t len, const char *name,
    const struct dk_open_opts *o, struct dk_dump **dp, struct dk_err *err)
{
	struct dk_dump *d;
	enum dk_status st;

	dk_err_clear(err);
	*dp = NULL;
	if ((d = new_dump(name, err)) == NULL)
		return DK_ENOMEM;
	d->src.mem = buf;
	d->src.size = len;
	if ((st = open_src(d, NULL, o, err)) != DK_OK) {
		dk_close(d);
		return st;
	}
	*dp = d;
	return DK_OK;
}

enum dk_status
dk_open_src(const struct dk_src *src, const struct dk_open_opts *o,
    struct dk_dump **dp, struct dk_err *err)
{
	struct dk_dump *d;
	enum dk_status st;

	dk_err_clear(err);
	*dp = NULL;
	if ((d = new_dump(src->name, err)) == NULL)
		return DK_ENOMEM;
	d->src.mem = src->mem;
	d->src.base = src->base;
	d->src.size = src->size;
	d->src.z = src->z;		/* the checker's one-pass stream */
	if (src->fd >= 0 && (d->src.fd = fcntl(src->fd, F_DUPFD_CLOEXEC,
	    0)) < 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", src->name, strerror(errno));
		err->sys_errno = errno;
		dk_close(d);
		return DK_ESYS;
	}
	if ((st = open_src(d, NULL, o, err)) != DK_OK) {
		dk_close(d);
		return st;
	}
	*dp = d;
	return DK_OK;
}

DK_EXPORT void
dk_close(struct dk_dump *d)
{
	if (d == NULL)
		return;
	if (d->fmt != NULL && d->fmt->close != NULL)
		d->fmt->close(d);
	if (d->wrap != NULL && d->wrap != d->fmt && d->wrap->close != NULL)
		d->wrap->close(d);
	while (d->nlayers > 0) {
		struct dk_layer *l = &d->layers[--d->nlayers];

		d->src = l->outer;
		if (l->ops != NULL && l->ops->close != NULL)
			l->ops->close(d, l);
	}
	if (d->src.fd >= 0)
		close(d->src.fd);
	for (size_t i = 1; i < d->npart; i++)
		if (d->part[i].fd >= 0)
			close(d->part[i].fd);
	free(d->part);
	free(d->pc.buf);
	free(d->ptc.buf);
	free(d->avail);
	for (size_t i = 0; i < d->nattr; i++)
		free((char *)d->attr[i].name);	/* the value shares it */
	free(d->attr);
	free(d->win);
	free(d->sect);
	free(d);
}

DK_EXPORT const struct dk_info *
dk_info(const struct dk_dump *d)
{
	return &d->info;
}

DK_EXPORT size_t
dk_nlayers(const struct dk_dump *d)
{
	return d->nlayers;
}

DK_EXPORT const struct dk_layer_info *
dk_layer(const struct dk_dump *d, size_t i)
{
	return i < d->nlayers ? &d->layers[i].info : NULL;
}

DK_EXPORT size_t
dk_header_nfields(const struct dk_dump *d)
{
	const struct dk_layout *l = d->hlayout;
	size_t n = 0;

	if (l == NULL)
		return 0;
	/* A flexible array member (sparc64's dh_regions) has no value. */
	for (size_t i = 0; i < l->nfields; i++)
		if ((l->fields[i].versions & DK_V(d->info.version)) &&
		    l->fields[i].kind != DK_FK_ARRAY)
			n++;
	return n;
}

DK_EXPORT int
dk_header_field(const struct dk_dump *d, size_t idx, struct dk_hfield *out)
{
	const struct dk_layout *l = d->hlayout;
	size_t n = 0;

	if (l == NULL)
		return -1;
	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *f = &l->fields[i];

		if (!(f->versions & DK_V(d->info.version)) ||
		    f->kind == DK_FK_ARRAY)
			continue;
		if (n++ != idx)
			continue;
		memset(out, 0, sizeof(*out));
		out->name = f->name;
		out->offset = f->off;
		out->size = f->size;
		out->is_string = f->kind == DK_FK_CHARS;
		out->is_padding = f->kind == DK_FK_PAD;
		if (out->is_string)
			snprintf(out->str, sizeof(out->str), "%s",
			    d->hdr.s[f->id]);
		else if (f->kind != DK_FK_PAD && f->kind != DK_FK_ARRAY)
			out->value = d->hdr.v[f->id];
		return 0;
	}
	return -1;
}

DK_EXPORT size_t
dk_phys_nranges(const struct dk_dump *d)
{
	return d->navail;
}

DK_EXPORT struct dk_range
dk_phys_range(const struct dk_dump *d, size_t i)
{
	struct dk_range r = { 0, 0 };

	if (i < d->navail)
		r = d->avail[i];
	return r;
}

/* Make room for one more element of size sz in *v (n used, *cap held). */
static int
grow(struct dk_dump *d, void **v, size_t n, size_t *cap, size_t sz)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 1;
	c = *cap ? 2 * *cap : 8;
	if ((p = realloc(*v, c * sz)) == NULL) {
		d->oom = 1;
		return 0;
	}
	*v = p;
	*cap = c;
	return 1;
}

void
dk_add_section(struct dk_dump *d, const char *name, uint64_t off,
    uint64_t size, uint64_t space)
{
	if (!grow(d, (void **)&d->sect, d->nsect, &d->capsect,
	    sizeof(*d->sect)))
		return;
	d->sect[d->nsect++] = (struct dk_section){ name, off, size, space };
}

void
dk_add_window(struct dk_dump *d, enum dk_window_kind kind, const char *name,
    uint64_t va, uint64_t end, uint64_t pa)
{
	if (kind == DK_WIN_DIRECT_MAP && d->dmap_i < d->nwin) {
		/* One direct map: a second report replaces the first. */
		d->win[d->dmap_i] = (struct dk_window){ kind, name, va, end,
		    pa };
		return;
	}
	if (!grow(d, (void **)&d->win, d->nwin, &d->capwin, sizeof(*d->win)))
		return;
	if (kind == DK_WIN_DIRECT_MAP)
		d->dmap_i = d->nwin;
	d->win[d->nwin++] = (struct dk_window){ kind, name, va, end, pa };
}

static void
add_attr(struct dk_dump *d, const char *name, enum dk_attr_type type,
    const char *str, uint64_t num, const char *source)
{
	size_t nl = strlen(name) + 1, sl = str != NULL ? strlen(str) + 1 : 0;
	struct dk_attr *a;
	char *p;

	if (!grow(d, (void **)&d->attr, d->nattr, &d->capattr,
	    sizeof(*d->attr)))
		return;
	if ((p = malloc(nl + sl)) == NULL) {
		d->oom = 1;
		return;
	}
	a = &d->attr[d->nattr++];
	a->name = memcpy(p, name, nl);
	a->type = type;
	a->str = str != NULL ? memcpy(p + nl, str, sl) : NULL;
	a->num = num;
	a->source = source;
}

void
dk_add_attr_str(struct dk_dump *d, const char *name, const char *value,
    const char *source)
{
	if (value != NULL && value[0] != '\0')
		add_attr(d, name, DK_ATTR_STRING, value, 0, source);
}

void
dk_add_attr_num(struct dk_dump *d, const char *name, enum dk_attr_type type,
    uint64_t value, const char *source)
{
	add_attr(d, name, type, NULL, value, source);
}

DK_EXPORT size_t
dk_nsections(const struct dk_dump *d)
{
	return d->nsect;
}

DK_EXPORT const struct dk_section *
dk_section(const struct dk_dump *d, size_t i)
{
	return i < d->nsect ? &d->sect[i] : NULL;
}

DK_EXPORT size_t
dk_nwindows(const struct dk_dump *d)
{
	return d->nwin;
}

DK_EXPORT const struct dk_window *
dk_window(const struct dk_dump *d, size_t i)
{
	return i < d->nwin ? &d->win[i] : NULL;
}

DK_EXPORT const struct dk_window *
dk_window_find(const struct dk_dump *d, enum dk_window_kind k)
{
	for (size_t i = 0; i < d->nwin; i++)
		if (d->win[i].kind == k)
			return &d->win[i];
	return NULL;
}

DK_EXPORT size_t
dk_nattrs(const struct dk_dump *d)
{
	return d->nattr;
}

DK_EXPORT const struct dk_attr *
dk_attr(const struct dk_dump *d, size_t i)
{
	return i < d->nattr ? &d->attr[i] : NULL;
}

DK_EXPORT const struct dk_attr *
dk_attr_find(const struct dk_dump *d, const char *name)
{
	for (size_t i = 0; i < d->nattr; i++)
		if (strcmp(d->attr[i].name, name) == 0)
			return &d->attr[i];
	return NULL;
}

DK_EXPORT enum dk_status
dk_pa_offset(struct dk_dump *d, uint64_t pa, uint64_t *off,
    struct dk_err *err)
{
	return d->fmt->pa_offset(d, pa, off, err);
}

/*
 * The page at the page-aligned pa, through the format's page-read path
 * and the page cache; *p points into the cache until the next call.
 */
static enum dk_status
cached_page(struct dk_dump *d, uint64_t pa, const uint8_t **p,
    struct dk_err *err)
{
	struct dk_pcache *c = &d->pc;
	unsigned k;
	enum dk_status st;

	if (c->buf == NULL) {
		if ((c->buf = malloc(DK_PCACHE_N * d->page_size)) == NULL)
			return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    d->src.name);
		for (k = 0; k < DK_PCACHE_N; k++)
			c->pa[k] = UINT64_MAX;
	}
	for (k = 0; k < DK_PCACHE_N; k++)
		if (c->pa[k] == pa) {
			c->hits++;
			*p = c->buf + k * d->page_size;
			return DK_OK;
		}
	c->misses++;
	k = c->next;
	c->next = (k + 1) % DK_PCACHE_N;
	c->pa[k] = UINT64_MAX;
	if ((st = d->fmt->read_page(d, pa, c->buf + k * d->page_size, err)) !=
	    DK_OK)
		return st;
	c->pa[k] = pa;
	*p = c->buf + k * d->page_size;
	return DK_OK;
}

/*
 * Read physical memory.  Pages that follow each other in physical memory
 * and in the file are read with one pread; pages with no offset come
 * through the format's page-read path.
 */
DK_EXPORT enum dk_status
dk_read_pa(struct dk_dump *d, uint64_t pa, void *buf, size_t len,
    struct dk_err *err)
{
	uint8_t *p = buf;
	uint64_t mask = d->page_size - 1;

	while (len > 0) {
		uint64_t off, next;
		size_t n = (size_t)(d->page_size - (pa & mask));
		enum dk_status st;

		if ((st = d->fmt->pa_offset(d, pa, &off, err)) != DK_OK)
			return st;
		if (n > len)
			n = len;
		if (off == DK_OFF_ZERO || off == DK_OFF_PAGED) {
			const uint8_t *pg = NULL;

			if (off == DK_OFF_ZERO)	/* dumped as zeros, left out */
				memset(p, 0, n);
			else if (d->fmt->read_page == NULL)
				return dk_err_set(err, DK_EUNSUP, "physical "
				    "address %#jx: the format gives no way to "
				    "read its page", (uintmax_t)pa);
			else if ((st = cached_page(d, pa & ~mask, &pg, err)) !=
			    DK_OK)
				return dk_err_prefix(err, "physical address "
				    "%#jx", (uintmax_t)pa);
			else
				memcpy(p, pg + (pa & mask), n);
			p += n;
			pa += n;
			len -= n;
			continue;
		}
		/* Extend over following pages that are adjacent in the file. */
		while (n < len && n < DK_READ_CHUNK &&
		    d->fmt->pa_offset(d, pa + n, &next, err) == DK_OK &&
		    next == off + n)
			n += len - n < d->page_size ? len - n :
			    (size_t)d->page_size;
		dk_err_clear(err);
		st = dk_src_pread(&d->src, p, n, off, "page data", err);
		if (st != DK_OK)
			return dk_err_prefix(err, "physical address %#jx",
			    (uintmax_t)pa);
		p += n;
		pa += n;
		len -= n;
	}
	return DK_OK;
}

DK_EXPORT enum dk_status
dk_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, struct dk_err *err)
{
	return d->fmt->kvtop(d, va, pa, err);
}

DK_EXPORT enum dk_status
dk_read_va(struct dk_dump *d, uint64_t va, void *buf, size_t len,
    struct dk_err *err)
{
	uint8_t *p = buf;
	uint64_t mask = d->page_size - 1;

	while (len > 0) {
		size_t n = (size_t)(d->page_size - (va & mask));
		uint64_t pa;
		enum dk_status st;

		if (n > len)
			n = len;
		/* Stored by virtual address (powerpc virtual cores)? */
		st = d->fmt->va_offset != NULL ? d->fmt->va_offset(d, va, &pa,
		    err) : DK_NOMATCH;
		if (st == DK_OK) {
			uint64_t last;

			if (d->fmt->va_offset(d, va + n - 1, &last, err) !=
			    DK_OK || (pa == DK_OFF_ZERO ? last != pa :
			    last != pa + n - 1))
				n = 1;	/* the page spans two segments */
			if (pa == DK_OFF_ZERO)
				memset(p, 0, n);
			else if ((st = dk_src_pread(&d->src, p, n, pa,
			    "virtual page data", err)) != DK_OK)
				return dk_err_prefix(err, "virtual address "
				    "%#jx", (uintmax_t)va);
		} else if (st != DK_NOMATCH) {
			return st;
		} else if ((st = dk_kvtop(d, va, &pa, err)) != DK_OK) {
			return st;
		} else if ((st = dk_read_pa(d, pa, p, n, err)) != DK_OK)
			return dk_err_prefix(err, "virtual address %#jx",
			    (uintmax_t)va);
		p += n;
		va += n;
		len -= n;
	}
	return DK_OK;
}

enum dk_status
dk_read_pa_u64(struct dk_dump *d, uint64_t pa, uint64_t *v,
    struct dk_err *err)
{
	uint8_t b[8];
	enum dk_status st;

	if ((st = dk_read_pt(d, pa, b, sizeof(b), err)) != DK_OK)
		return st;
	*v = dec_uint(b, 8, d->arch->endian);
	return DK_OK;
}

DK_EXPORT int
dk_run_next(const struct dk_dump *d, struct dk_run_iter *it,
    struct dk_run *run)
{
	return d->fmt->run_next(d, it, run);
}

DK_EXPORT enum dk_status
dk_read_msgbuf(struct dk_dump *d, void *buf, size_t len, size_t *got,
    struct dk_err *err)
{
	*got = 0;
	if (d->fmt->read_log == NULL)
		return DK_OK;		/* the format holds no message buffer */
	return d->fmt->read_log(d, buf, len, got, err);
}
