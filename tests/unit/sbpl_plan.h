/* Test helper: build struct sbx_plan values by hand, as the policy resolver
   would produce them, for the Seatbelt generator tests.  */
#ifndef SBX_TEST_SBPL_PLAN_H
#define SBX_TEST_SBPL_PLAN_H

#include "policy/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *
tp_strdup (const char *s)
{
  char *d = s ? strdup (s) : NULL;
  if (s && !d)
    abort ();
  return d;
}

/* An agent plan (the host, read-only, as "/") with MODE and NET.  */
static inline void
tp_init (struct sbx_plan *p, enum sbx_mode mode, enum sbx_net net)
{
  memset (p, 0, sizeof *p);
  p->agent = true;
  p->mode = mode;
  p->network = net;
  p->root = tp_strdup ("/");
  p->root_readonly = true;
}

static inline void
tp_add (struct sbx_plan *p, enum sbx_plan_op op, enum sbx_plan_why why,
        const char *source, const char *dest)
{
  p->mounts = realloc (p->mounts, (p->n_mounts + 1) * sizeof *p->mounts);
  if (p->mounts == NULL)
    abort ();
  p->mounts[p->n_mounts++] = (struct sbx_plan_mount){
    .op = op,
    .why = why,
    .source = tp_strdup (source),
    .dest = tp_strdup (dest),
    .perms = -1,
  };
}

/* A bind of PATH onto itself, as every agent plan's binds are.  */
static inline void
tp_bind (struct sbx_plan *p, enum sbx_plan_op op, enum sbx_plan_why why,
         const char *path)
{
  tp_add (p, op, why, path, path);
}

static inline void
tp_dest (struct sbx_plan *p, enum sbx_plan_op op, enum sbx_plan_why why,
         const char *dest)
{
  tp_add (p, op, why, NULL, dest);
}

/* What the resolver puts first in every agent plan: the host read-only,
   /proc, /dev and, unless /tmp is granted, a private /tmp.  */
static inline void
tp_agent_base (struct sbx_plan *p, bool private_tmp)
{
  tp_bind (p, SBX_PLAN_BIND_RO, SBX_WHY_ROOT, "/");
  tp_dest (p, SBX_PLAN_PROC, SBX_WHY_SYSTEM, "/proc");
  tp_dest (p, SBX_PLAN_DEV, SBX_WHY_SYSTEM, "/dev");
  if (private_tmp)
    tp_dest (p, SBX_PLAN_TMPFS, SBX_WHY_TEMP, "/tmp");
}

/* The hardened defaults: credential stores and daemon sockets hidden.  */
static inline void
tp_hardened (struct sbx_plan *p)
{
  tp_dest (p, SBX_PLAN_HIDE_DIR, SBX_WHY_CREDENTIAL, "/Users/me/.ssh");
  tp_dest (p, SBX_PLAN_HIDE_DIR, SBX_WHY_CREDENTIAL, "/Users/me/.aws");
  tp_dest (p, SBX_PLAN_HIDE_FILE, SBX_WHY_CREDENTIAL, "/Users/me/.netrc");
  tp_dest (p, SBX_PLAN_HIDE_FILE, SBX_WHY_SOCKET, "/var/run/docker.sock");
}

/* What the resolver puts last (policy_seal_hidden): a read-only seal of
   every hidden directory.  */
static inline void
tp_seal_hidden (struct sbx_plan *p)
{
  size_t n = p->n_mounts;
  for (size_t i = 0; i < n; i++)
    if (p->mounts[i].op == SBX_PLAN_HIDE_DIR)
      {
        char *dest = tp_strdup (p->mounts[i].dest);
        tp_add (p, SBX_PLAN_REMOUNT_RO, p->mounts[i].why, NULL, dest);
        free (dest);
      }
}

static inline void
tp_free (struct sbx_plan *p)
{
  for (size_t i = 0; i < p->n_mounts; i++)
    {
      free (p->mounts[i].source);
      free (p->mounts[i].dest);
    }
  free (p->mounts);
  free (p->root);
  memset (p, 0, sizeof *p);
}

#endif
