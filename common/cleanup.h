/* Scope-bound release of fds and heap memory, as crun does: error paths stay
   short and correct.  */
#ifndef SBX_CLEANUP_H
#define SBX_CLEANUP_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void
cleanup_freep (void *p)
{
  free (*(void **) p);
}

static inline void
cleanup_closep (int *fd)
{
  if (*fd >= 0)
    {
      int saved = errno;
      close (*fd);
      errno = saved;
    }
}

static inline void
cleanup_fclosep (FILE **f)
{
  if (*f)
    fclose (*f);
}

#define cleanup_free __attribute__ ((cleanup (cleanup_freep)))
#define cleanup_close __attribute__ ((cleanup (cleanup_closep)))
#define cleanup_fclose __attribute__ ((cleanup (cleanup_fclosep)))

/* Hand a cleanup-owned value to someone else.  */
#define steal_pointer(pp)                                                     \
  ({                                                                          \
    __typeof__ (*(pp)) _v = *(pp);                                            \
    *(pp) = NULL;                                                             \
    _v;                                                                       \
  })
#define steal_fd(fdp)                                                         \
  ({                                                                          \
    int _fd = *(fdp);                                                         \
    *(fdp) = -1;                                                              \
    _fd;                                                                      \
  })

#endif
