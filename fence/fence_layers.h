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

/* Whether L shows a host directory (a bind), and L's rule for ACCESS
   before any file is opened (L may be NULL: nothing is there).  */
bool fence_shows_host (const struct fence_layer *l);
enum sbx_fence_rule fence_layer_rule (const struct fence_layer *l,
                                      enum sbx_fence_access access);

/* PATH (absolute, or relative to the fence's cwd) normalized: a new
   string, or NULL on ENOMEM.  */
char *fence_absolute (const struct sbx_fence *f, const char *path);

/* The verdict for absolute, normalized PATH from the layers alone.
   Returns 0 or -ENOMEM; V->path is PATH (copied).  */
int fence_decide (const struct sbx_fence *f, const char *path,
                  enum sbx_fence_access access, struct sbx_fence_verdict *v);

/* The rule the ".." components of PATH (as given: absolute, or relative
   to the fence's cwd) meet, into *RULE: SBX_FENCE_GRANTED when each
   directory a ".." steps back over is one the fence itself can open.
   Returns 0, or -errno (ERR set) when one is not there, as in the
   sandbox (fence/fence_resolve.c).  */
int fence_dotdots (const struct sbx_fence *f, const char *path,
                   enum sbx_fence_rule *rule, struct sbx_error *err);

/* Fill V's reason and grant from its rule.  */
void fence_explain (struct sbx_fence_verdict *v);

#endif
