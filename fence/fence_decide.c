/* Which layer of the plan decides a path, and what it allows: the same
   reading of the plan's mounts as the runner's, which lays them in order,
   a later one covering whatever an earlier one put at or below its
   destination.  Pure: no file is looked at.  */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "fence/fence_layers.h"

/* Seals (--remount-ro of a hidden directory, not recursive in bwrap) and
   directories the runner makes change no host file's access.  */
static bool
is_layer (const struct fence_layer *l)
{
  return l->op != SBX_PLAN_REMOUNT_RO && l->op != SBX_PLAN_DIR;
}

const struct fence_layer *
fence_layer_of (const struct sbx_fence *f, const char *path)
{
  for (size_t i = f->n_layers; i-- > 0;)
    {
      const struct fence_layer *l = &f->layers[i];
      if (is_layer (l) && sbx_path_is_under (path, l->dest))
        return l;
    }
  return NULL;
}

char *
fence_absolute (const struct sbx_fence *f, const char *path)
{
  return sbx_path_join (f->cwd ? f->cwd : "/", path);
}

/* A host directory seen through a bind: readable, and writable too when
   the bind is.  Anything else is the sandbox's own or empty.  */
bool
fence_shows_host (const struct fence_layer *l)
{
  return (l->op == SBX_PLAN_BIND_RO || l->op == SBX_PLAN_BIND_RW
          || l->op == SBX_PLAN_BIND_DEV)
         && l->why != SBX_WHY_SYSTEM && l->fd >= 0;
}

static enum sbx_fence_rule
rule_of_why (enum sbx_plan_why why)
{
  switch (why)
    {
    case SBX_WHY_WORKSPACE:
      return SBX_FENCE_MODE;
    case SBX_WHY_OCI_MOUNT:
    case SBX_WHY_MASKED:
    case SBX_WHY_READONLY:
      return SBX_FENCE_CONFIG;
    case SBX_WHY_PROTECTED:
      return SBX_FENCE_PROTECTED;
    case SBX_WHY_CREDENTIAL:
      return SBX_FENCE_CREDENTIAL;
    case SBX_WHY_SOCKET:
      return SBX_FENCE_SOCKET;
    case SBX_WHY_ALIAS:
      return SBX_FENCE_ALIAS;
    case SBX_WHY_SYSTEM:
    case SBX_WHY_TEMP:
      return SBX_FENCE_PRIVATE;
    case SBX_WHY_ROOT:
      break;
    }
  return SBX_FENCE_READ_ONLY;
}

/* The rule of layer L for ACCESS, before any file is opened.  */
enum sbx_fence_rule
fence_layer_rule (const struct fence_layer *l, enum sbx_fence_access access)
{
  if (l == NULL)
    return SBX_FENCE_READ_ONLY;
  if (!fence_shows_host (l))
    {
      bool hidden = l->op == SBX_PLAN_HIDE_DIR || l->op == SBX_PLAN_HIDE_FILE;
      enum sbx_fence_rule r = rule_of_why (l->why);
      return hidden && r != SBX_FENCE_PRIVATE ? r : SBX_FENCE_PRIVATE;
    }
  if (access == SBX_FENCE_READ || l->op != SBX_PLAN_BIND_RO)
    return SBX_FENCE_GRANTED;
  return rule_of_why (l->why);
}

/* Whether PATH is, or holds, the destination of a layer: the sandbox can
   neither remove nor rename a mount point (EBUSY), and the fence does not
   move a directory that holds one either (the hidden store would move
   with it on the host).  */
static const struct fence_layer *
holds_layer (const struct sbx_fence *f, const char *path)
{
  for (size_t i = 0; i < f->n_layers; i++)
    if (is_layer (&f->layers[i])
        && sbx_path_is_under (f->layers[i].dest, path))
      return &f->layers[i];
  return NULL;
}

int
fence_decide (const struct sbx_fence *f, const char *path,
              enum sbx_fence_access access, struct sbx_fence_verdict *v)
{
  memset (v, 0, sizeof *v);
  v->access = access;
  v->path = strdup (path);
  if (v->path == NULL)
    return -ENOMEM;
  const struct fence_layer *l = fence_layer_of (f, path);
  v->rule = fence_layer_rule (l, access);
  if (v->rule == SBX_FENCE_GRANTED && access == SBX_FENCE_ERASE)
    {
      const struct fence_layer *held = holds_layer (f, path);
      if (held)
        {
          v->rule = SBX_FENCE_MOUNT;
          l = held;
        }
    }
  v->allowed = v->rule == SBX_FENCE_GRANTED;
  if (l && (v->layer = strdup (l->dest)) == NULL)
    return -ENOMEM;
  if (l && fence_shows_host (l) && v->rule != SBX_FENCE_MOUNT)
    {
      const char *rest = path + strlen (l->dest);
      rest += rest[0] == '/';
      v->host = sbx_path_join (l->source, rest[0] ? rest : ".");
      if (v->host == NULL)
        return -ENOMEM;
    }
  fence_explain (v);
  return 0;
}

int
sbx_fence_check (const struct sbx_fence *fence, const char *path,
                 enum sbx_fence_access access, struct sbx_fence_verdict *v,
                 struct sbx_error *err)
{
  memset (v, 0, sizeof *v);
  enum sbx_fence_rule dotdot;
  int r = fence_dotdots (fence, path, &dotdot, err);
  if (r < 0)
    return r;
  char *abs = fence_absolute (fence, path);
  r = abs ? fence_decide (fence, abs, access, v) : -ENOMEM;
  free (abs);
  if (r < 0)
    {
      sbx_fence_verdict_free (v);
      return sbx_fail (err, r, "out of memory");
    }
  if (dotdot != SBX_FENCE_GRANTED)
    {
      v->rule = dotdot;
      v->allowed = false;
      fence_explain (v);
    }
  return 0;
}

void
sbx_fence_verdict_free (struct sbx_fence_verdict *v)
{
  free (v->path);
  free (v->layer);
  free (v->host);
  memset (v, 0, sizeof *v);
}
