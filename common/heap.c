/* A small heap for the release build (musl), whose own allocator hands
   every emptied group back to the kernel at once and spreads a run's few
   hundred blocks over pages of their own size classes: with it, `run`
   maps and unmaps memory a dozen times and takes 17 page faults more
   than with this heap, about 0.1 ms of every run on a VM where a page's
   first touch is dear (docs/benchmarks.md).

   Blocks come in power-of-two classes carved in order from mapped chunks
   that are never returned (a run's whole heap, about 100 KiB, fits in
   one); a freed block goes on its class's list and is reused, so a
   long-lived monitor does not grow.  Larger blocks are mapped on their
   own.  The header before each block carries a check word that mixes its
   address and its class under a per-process secret, and a free block's
   link is kept under that secret too (link_next): a double free, a free
   of a pointer the heap never gave, an overflow that reaches the next
   header (a single byte of its class included) or a rewritten link is
   caught at the next free or reuse and aborts instead of bending the
   heap.  What it cannot catch, as most allocators cannot: a stale free
   of a block whose address was handed out again.  sbx-oci has no
   threads; the one child that shares its memory while both run (the
   run's guard) allocates nothing.  */
#include "common/heap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>

enum
{
  MIN_SHIFT = 4,  /* 16 bytes */
  MAX_SHIFT = 16, /* 64 KiB; larger blocks are mapped */
  CHUNK = 256 * 1024,
  BIG = 0xff, /* the class of a mapped block */
};

/* 16 bytes, so that blocks keep malloc's 16-byte alignment.  */
struct header
{
  uint64_t info;  /* the class, or BIG | size << 8 */
  uint64_t check; /* in_use (): address and info under the secret;
                     its complement when free */
};

static uint64_t secret;
static void *free_list[MAX_SHIFT + 1];
static char *carve, *carve_end;

static uint64_t
key (void)
{
  if (secret == 0)
    {
      /* AT_RANDOM's 16 bytes: the first 8 are the stack canary's.  */
      const char *r = (const char *) getauxval (AT_RANDOM);
      uint64_t k = 0x9e3779b97f4a7c15u;
      if (r)
        memcpy (&k, r + 8, sizeof k);
      secret = k | 1;
    }
  return secret;
}

static struct header *
header_of (void *p)
{
  return (struct header *) p - 1;
}

/* The check word of the block at P with header word INFO, in use: both
   mixed under the secret, so that a header rewritten in part (a short
   overflow into the class, say) no longer matches.  */
static uint64_t
in_use (void *p, uint64_t info)
{
  uint64_t x = ((uint64_t) (uintptr_t) p ^ key ()) * 0x9e3779b97f4a7c15u;
  return (x ^ (x >> 29) ^ info) * 0xbf58476d1ce4e5b9u;
}

/* The header of P, a block in use, or abort.  */
static struct header *
checked (void *p)
{
  struct header *h = header_of (p);
  if (((uintptr_t) p & 15) != 0 || h->check != in_use (p, h->info)
      || ((h->info & 0xff) != BIG
          && (h->info < MIN_SHIFT || h->info > MAX_SHIFT)))
    abort ();
  return h;
}

/* A free block's link to the next on its list, kept twice under two
   keys in its first 16 bytes (the smallest block's): an overwrite cannot
   make both decode to the same aligned pointer without the secret.  */
static void
link_next (void *p, void *next)
{
  uint64_t n = (uint64_t) (uintptr_t) next, k = key ();
  ((uint64_t *) p)[0] = n ^ k;
  ((uint64_t *) p)[1] = n ^ (k << 32 | k >> 32);
}

static void *
unlink_next (void *p)
{
  uint64_t k = key ();
  uint64_t n = ((uint64_t *) p)[0] ^ k;
  if (n != (((uint64_t *) p)[1] ^ (k << 32 | k >> 32)) || (n & 15) != 0)
    abort ();
  return (void *) (uintptr_t) n;
}

static void *
carve_block (unsigned shift)
{
  size_t need = sizeof (struct header) + ((size_t) 1 << shift);
  /* Chunks are mapped, never in .bss: the binary is not position
     independent, and a heap at a fixed address would give away where
     every block lies.  */
  if (carve == NULL || (size_t) (carve_end - carve) < need)
    {
      void *m = mmap (NULL, CHUNK, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED)
        return NULL;
      carve = m;
      carve_end = carve + CHUNK;
    }
  void *p = carve + sizeof (struct header);
  carve += need;
  return p;
}

static void *
map_block (size_t size)
{
  if (size > (SIZE_MAX >> 9))
    return NULL;
  char *m = mmap (NULL, sizeof (struct header) + size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return NULL;
  void *p = m + sizeof (struct header);
  uint64_t info = BIG | (uint64_t) size << 8;
  *header_of (p) = (struct header){ info, in_use (p, info) };
  return p;
}

void *
sbx_heap_alloc (size_t size)
{
  void *p;
  if (size > ((size_t) 1 << MAX_SHIFT))
    p = map_block (size);
  else
    {
      unsigned shift = MIN_SHIFT;
      while (((size_t) 1 << shift) < size)
        shift++;
      p = free_list[shift];
      if (p != NULL)
        {
          struct header *h = header_of (p);
          if (h->info != shift || h->check != ~in_use (p, shift))
            abort ();
          free_list[shift] = unlink_next (p);
          h->check = in_use (p, shift);
        }
      else if ((p = carve_block (shift)) != NULL)
        *header_of (p) = (struct header){ shift, in_use (p, shift) };
    }
  if (p == NULL)
    errno = ENOMEM;
  return p;
}

void
sbx_heap_free (void *p)
{
  if (p == NULL)
    return;
  struct header *h = checked (p);
  if ((h->info & 0xff) == BIG)
    {
      /* A mapped block's header starts its mapping: anything else is no
         block of ours, and an unmap that fails is a heap gone wrong.  */
      h->check = 0;
      if (((uintptr_t) h & 4095) != 0
          || munmap (h, sizeof *h + (h->info >> 8)) < 0)
        abort ();
      return;
    }
  h->check = ~in_use (p, h->info);
  link_next (p, free_list[h->info]);
  free_list[h->info] = p;
}

size_t
sbx_heap_usable (void *p)
{
  struct header *h = checked (p);
  return (h->info & 0xff) == BIG ? h->info >> 8 : (size_t) 1 << h->info;
}

void *
sbx_heap_realloc (void *p, size_t size)
{
  if (p == NULL)
    return sbx_heap_alloc (size);
  size_t have = sbx_heap_usable (p);
  if (size <= have && (size > have / 2 || have <= 16))
    return p;
  void *q = sbx_heap_alloc (size);
  if (q == NULL)
    return size <= have ? p : NULL; /* a shrink can keep the block */
  memcpy (q, p, have < size ? have : size);
  sbx_heap_free (p);
  return q;
}

void *
sbx_heap_calloc (size_t n, size_t size)
{
  if (size != 0 && n > SIZE_MAX / size)
    {
      errno = ENOMEM;
      return NULL;
    }
  void *p = sbx_heap_alloc (n * size);
  if (p != NULL)
    memset (p, 0, n * size);
  return p;
}
