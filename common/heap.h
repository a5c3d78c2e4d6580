/* The release build's heap (common/heap.c; common/heap_malloc.c makes it
   malloc in the musl build).  Same contracts as malloc, free, realloc,
   calloc and malloc_usable_size; a pointer the heap did not give, or a
   block freed twice, aborts.  */
#ifndef SBX_HEAP_H
#define SBX_HEAP_H

#include <stddef.h>

void *sbx_heap_alloc (size_t size);
void sbx_heap_free (void *p);
void *sbx_heap_realloc (void *p, size_t size);
void *sbx_heap_calloc (size_t n, size_t size);
size_t sbx_heap_usable (void *p);

#endif
