/* Inside the fence: the plan's mount layers, each with a descriptor of its
   host source, and the decision of which layer a path falls in.  */
#ifndef SBX_FENCE_LAYERS_H
#define SBX_FENCE_LAYERS_H

#include "fence/fence.h"
#include "policy/policy.h"

struct fence_layer
{
  enum sbx_plan_op op;
  enum sbx_plan_why why;
  char *source; /* host path of a bind, else NULL */
  char *dest;   /* the sandbox's path */
  int fd;       /* O_PATH of SOURCE, opened when the fence was built; -1 */
};

struct sbx_fence
{
  struct fence_layer *layers; /* the plan's order: a later one on top */
  size_t n_layers;
  char *cwd; /* process.cwd: what a relative path is relative to */
};

/* The layer deciding absolute, normalized PATH: the last one at or above
   it (a later mount covers an earlier one), or NULL.  */
const struct fence_layer *fence_layer_of (const struct sbx_fence *f,
                                          const char *path);

/* PATH (absolute, or relative to the fence's cwd) normalized: a new
   string, or NULL on ENOMEM.  */
char *fence_absolute (const struct sbx_fence *f, const char *path);

/* The verdict for absolute, normalized PATH from the layers alone.
   Returns 0 or -ENOMEM; V->path is PATH (copied).  */
int fence_decide (const struct sbx_fence *f, const char *path,
                  enum sbx_fence_access access, struct sbx_fence_verdict *v);

/* Fill V's reason and grant from its rule.  */
void fence_explain (struct sbx_fence_verdict *v);

#endif
