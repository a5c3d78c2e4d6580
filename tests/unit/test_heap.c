/* The musl build's heap (common/heap.c), called directly so that every
   build tests it: sizes and alignment, reuse of freed blocks, realloc and
   calloc, mapped blocks, and the aborts that guard it.  */
#include "common/heap.h"
#include "tests/unit/tap.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void
test_sizes (void)
{
  static const size_t sizes[]
      = { 0, 1, 15, 16, 17, 100, 4096, 65536, 65537, 300000 };
  bool aligned = true, usable = true, apart = true;
  char *prev = NULL;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    {
      char *p = sbx_heap_alloc (sizes[i]);
      aligned &= p != NULL && ((uintptr_t) p & 15) == 0;
      usable &= p != NULL && sbx_heap_usable (p) >= sizes[i];
      if (p)
        memset (p, 0xa5, sizes[i]);
      apart &= p != prev;
      /* Written whole, the block before is still whole.  */
      prev = p;
    }
  tap_ok (aligned, "every block is 16-byte aligned");
  tap_ok (usable, "every block holds what was asked, mapped ones too");
  tap_ok (apart, "blocks are distinct");
}

static void
test_reuse (void)
{
  void *a = sbx_heap_alloc (40);
  sbx_heap_free (a);
  void *b = sbx_heap_alloc (64);
  tap_ok (a == b, "a freed block is reused for its class");
  memset (b, 0xff, 64);
  sbx_heap_free (b);
  unsigned char *c = sbx_heap_calloc (8, 8);
  bool zero = c != NULL;
  for (size_t i = 0; c && i < 64; i++)
    zero &= c[i] == 0;
  tap_ok (zero, "calloc zeroes a reused block");
  sbx_heap_free (c);
  tap_ok (sbx_heap_calloc (SIZE_MAX / 2, 4) == NULL,
          "calloc refuses a product that overflows");
  char *big = sbx_heap_alloc (1 << 20);
  uintptr_t page = (uintptr_t) big & ~(uintptr_t) 4095;
  sbx_heap_free (big);
  tap_ok (msync ((void *) page, 4096, MS_ASYNC) < 0 && errno == ENOMEM,
          "a mapped block is unmapped on free");
}

static void
test_realloc (void)
{
  char *p = sbx_heap_realloc (NULL, 10);
  strcpy (p, "012345678");
  char *q = sbx_heap_realloc (p, 12);
  tap_ok (q == p, "realloc within the class keeps the block");
  q = sbx_heap_realloc (q, 5000);
  tap_ok (q && strcmp (q, "012345678") == 0,
          "realloc to more moves the content");
  q = sbx_heap_realloc (q, 100000);
  tap_ok (q && strcmp (q, "012345678") == 0,
          "realloc into a mapped block too");
  q = sbx_heap_realloc (q, 20);
  tap_ok (q && strcmp (q, "012345678") == 0 && sbx_heap_usable (q) < 100000,
          "realloc to much less gives the memory back");
  sbx_heap_free (q);
}

/* Whether CASE aborts (SIGABRT) in a child.  */
static bool
aborts (int which)
{
  pid_t pid = fork ();
  if (pid == 0)
    {
      char *p = sbx_heap_alloc (32);
      static char outside[64] __attribute__ ((aligned (16)));
      switch (which)
        {
        case 0: /* a double free */
          sbx_heap_free (p);
          sbx_heap_free (p);
          break;
        case 1: /* a pointer the heap never gave */
          sbx_heap_free (outside + 16);
          break;
        case 2: /* an overflow into the next block's header */
          {
            char *next = sbx_heap_alloc (32);
            memset (p, 'x', 32 + 16);
            sbx_heap_free (next);
            break;
          }
        case 3: /* a freed block's link overwritten, then reused */
          sbx_heap_free (p);
          memset (p, 'x', 8);
          sbx_heap_alloc (32);
          sbx_heap_alloc (32);
          break;
        case 4: /* one byte over, into the next block's class */
          {
            char *next = sbx_heap_alloc (32);
            p[32] = 0x10;
            sbx_heap_free (next);
            break;
          }
        case 5: /* the next block's class forged as a mapped block's */
          {
            char *next = sbx_heap_alloc (32);
            uint64_t forged = 0xff | (uint64_t) 4096 << 8;
            memcpy (p + 32, &forged, sizeof forged);
            sbx_heap_free (next);
            break;
          }
        }
      _exit (0);
    }
  int status = 0;
  waitpid (pid, &status, 0);
  return WIFSIGNALED (status) && WTERMSIG (status) == SIGABRT;
}

static void
test_guards (void)
{
  tap_ok (aborts (0), "a double free aborts");
  tap_ok (aborts (1), "a free of a pointer the heap never gave aborts");
  tap_ok (aborts (2), "an overflow into the next header aborts at its free");
  tap_ok (aborts (3), "a free block's link overwritten aborts at reuse");
  tap_ok (aborts (4), "one byte over into the next class aborts at its free");
  tap_ok (aborts (5), "a class forged as a mapped block's aborts at its free");
}

int
main (void)
{
  test_sizes ();
  test_reuse ();
  test_realloc ();
  test_guards ();
  return tap_done ();
}
