/* Building a fence: the plan a sandbox of the same config would get, and
   a descriptor of each layer's host source, opened once, as the runner
   binds each source once when the sandbox starts.  */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "fence/fence_layers.h"
#include "runtime/linux/container/sandbox.h"

static bool
is_bind (enum sbx_plan_op op)
{
  return op == SBX_PLAN_BIND_RO || op == SBX_PLAN_BIND_RW
         || op == SBX_PLAN_BIND_DEV;
}

/* The source is opened following its links, as the runner resolves a
   bind's source; below it nothing is ever followed.  A missing optional
   source is no layer at all (the runner skips it): marked as a seal so
   that no path falls in it.  */
static int
open_source (const struct sbx_plan_mount *m, struct fence_layer *l,
             struct sbx_error *err)
{
  l->fd = open (m->source, O_PATH | O_CLOEXEC);
  if (l->fd >= 0)
    return 0;
  if (errno == ENOENT && m->optional)
    {
      l->op = SBX_PLAN_REMOUNT_RO;
      return 0;
    }
  return sbx_fail_errno (err, -errno, "fence: layer %s (from %s)", m->dest,
                         m->source);
}

static int
copy_layer (const struct sbx_plan_mount *m, struct fence_layer *l,
            struct sbx_error *err)
{
  l->op = m->op;
  l->why = m->why;
  l->fd = -1;
  l->dest = strdup (m->dest);
  if (l->dest == NULL || (m->source && !(l->source = strdup (m->source))))
    return sbx_fail (err, -ENOMEM, "out of memory");
  if (!is_bind (m->op) || m->source == NULL || m->why == SBX_WHY_SYSTEM)
    return 0;
  return open_source (m, l, err);
}

int
sbx_fence_from_plan (const struct sbx_plan *plan, struct sbx_fence **out,
                     struct sbx_error *err)
{
  *out = NULL;
  if (!plan->agent)
    return sbx_fail (err, -EINVAL,
                     "fence: the config is a container's (no sbx.mode): the "
                     "fence serves agent configs, whose paths are the "
                     "host's");
  struct sbx_fence *f = calloc (1, sizeof *f);
  if (f == NULL)
    return sbx_fail (err, -ENOMEM, "out of memory");
  f->layers = calloc (plan->n_mounts ? plan->n_mounts : 1, sizeof *f->layers);
  f->cwd = strdup (plan->cwd ? plan->cwd : "/");
  int r = f->layers && f->cwd ? 0 : sbx_fail (err, -ENOMEM, "out of memory");
  for (size_t i = 0; r == 0 && i < plan->n_mounts; i++)
    {
      r = copy_layer (&plan->mounts[i], &f->layers[i], err);
      f->n_layers = i + 1;
    }
  if (r < 0)
    {
      sbx_fence_free (f);
      return r;
    }
  *out = f;
  return 0;
}

int
sbx_fence_open (const struct sbx_fence_options *opts, struct sbx_fence **out,
                struct sbx_error *err)
{
  *out = NULL;
  struct sbx_context g = {
    .root = opts->root,
    .runner = opts->runner,
    .ceiling = opts->ceiling,
    .approve = opts->approve,
  };
  struct sbx_sandbox sb = { .seccomp_fd = -1, .seccomp_net_fd = -1 };
  cleanup_close int root_fd = -1;
  if (opts->config == NULL)
    return sbx_fail (err, -EINVAL, "fence: no config file (--config FILE)");
  int r = sbx_spec_load_config (opts->config, &sb.spec, err);
  if (r == 0)
    r = sbx_usable_state_root (&g, &root_fd, err);
  if (r == 0)
    r = sbx_sandbox_resolve (&g, root_fd, &sb, err);
  if (r == 0)
    r = sbx_fence_from_plan (sb.plan, out, err);
  sbx_sandbox_release (&sb);
  return r;
}

void
sbx_fence_free (struct sbx_fence *fence)
{
  if (fence == NULL)
    return;
  for (size_t i = 0; i < fence->n_layers; i++)
    {
      struct fence_layer *l = &fence->layers[i];
      if (l->fd >= 0)
        close (l->fd);
      free (l->source);
      free (l->dest);
    }
  free (fence->layers);
  free (fence->cwd);
  free (fence);
}
