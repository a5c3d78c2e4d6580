/* One operation's path: decided by the plan, then resolved beneath its
   layer's descriptor with openat2, never by a second lookup.  */
#ifndef SBX_FENCE_RESOLVE_H
#define SBX_FENCE_RESOLVE_H

#include "fence/fence_layers.h"

struct fence_target
{
  struct sbx_fence_verdict v;
  const struct fence_layer *layer;
  const char *rest; /* inside v.path: relative to the layer, "" at its root */
  struct sbx_fence_verdict *denied; /* the caller's, or NULL */
};

/* 0 when PATH, the operand of OP, can name a file; -EISDIR (ERR set)
   when it ends in "/" or "/.", as the kernel takes it.  */
int fence_names_file (const char *op, const char *path, struct sbx_error *err);

/* Decide PATH for ACCESS into T (release it with fence_target_free);
   a refusal is -EACCES.  */
int fence_target (const struct sbx_fence *f, const char *path,
                  enum sbx_fence_access access,
                  struct sbx_fence_verdict *denied, struct fence_target *t,
                  struct sbx_error *err);

void fence_target_free (struct fence_target *t);

/* Refuse T with RULE, found while resolving: -EACCES.  */
int fence_target_refuse (struct fence_target *t, enum sbx_fence_rule rule,
                         struct sbx_error *err);

/* T's path itself opened with FLAGS (and MODE when creating).  */
int fence_open (struct fence_target *t, int flags, mode_t mode,
                struct sbx_error *err);

/* The directory holding T's path, O_PATH, into *DIRFD, and its last
   component in *NAME (inside T).  The layer's own root has none: it is
   a mount point (-EACCES, rule mount-point).  */
int fence_open_parent (struct fence_target *t, int *dirfd, const char **name,
                       struct sbx_error *err);

/* ERR from -errno R of an operation on T (ELOOP: a link was met).  */
int fence_fail (struct fence_target *t, int r, const char *what,
                struct sbx_error *err);

#endif
