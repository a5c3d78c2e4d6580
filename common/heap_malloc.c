/* malloc, free, realloc and calloc of the musl build: common/heap.c (the
   comment there says why).  Linked into the binaries only where the C
   library is musl, which takes an application's own malloc; glibc builds,
   sanitized ones above all, keep the C library's.  */
#include <stdlib.h>

#include "common/heap.h"

void *
malloc (size_t size)
{
  return sbx_heap_alloc (size);
}

void
free (void *p)
{
  sbx_heap_free (p);
}

void *
realloc (void *p, size_t size)
{
  return sbx_heap_realloc (p, size);
}

void *
calloc (size_t n, size_t size)
{
  return sbx_heap_calloc (n, size);
}
