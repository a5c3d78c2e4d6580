/* The fence's rules in words: the names callers match on, one line of
   why, and the grant that would allow what was refused.  Rendered here
   only, for the C API, `fence check`'s JSON and every error message.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/json_gen.h"
#include "fence/fence_layers.h"

struct rule_text
{
  const char *name;
  const char *reason;
  const char *grant;
};

static const struct rule_text rules[] = {
  [SBX_FENCE_GRANTED] = { "granted", "a layer of the plan allows it", NULL },
  [SBX_FENCE_READ_ONLY]
  = { "read-only", "outside every writable root",
      "name a directory holding it in sbx.writableRoots (or make it "
      "sbx.workspace) with sbx.mode workspace-write" },
  [SBX_FENCE_MODE]
  = { "read-only-mode", "sbx.mode is read-only", "sbx.mode workspace-write" },
  [SBX_FENCE_CONFIG]
  = { "config-layer",
      "a layer of the config (mounts, linux.maskedPaths or "
      "linux.readonlyPaths) makes it read-only or hides it",
      "drop that layer from config.json, or bind a path below it "
      "writable" },
  [SBX_FENCE_CREDENTIAL]
  = { "credential-store", "a credential store hidden by hardened defaults",
      "none in the config: no layer re-opens it (sbx.hardenedDefaults "
      "false turns the hiding off)" },
  [SBX_FENCE_SOCKET]
  = { "daemon-socket", "a daemon socket hidden by hardened defaults",
      "a line \"socket:PATH\" in the operator's --approve file" },
  [SBX_FENCE_PROTECTED]
  = { "protected-metadata",
      "protected metadata: it would run code outside the sandbox later",
      "leave it out of sbx.protectedPaths, or change it outside the "
      "agent" },
  [SBX_FENCE_ALIAS]
  = { "hard-link-alias",
      "the file has another name (a hard link), which may lie outside "
      "every grant",
      "remove its other hard link (or sbx.aliasMasking {\"enabled\": "
      "false})" },
  [SBX_FENCE_PRIVATE]
  = { "private-mount",
      "the sandbox's own mount (its /tmp, /proc or /dev), not the host's "
      "file",
      "name the host directory in sbx.tempRoots (for /tmp) or "
      "sbx.writableRoots" },
  [SBX_FENCE_MOUNT]
  = { "mount-point",
      "it is, or holds, a layer of the plan: a mount point the sandbox "
      "cannot remove or rename",
      "act on the files below the layer" },
  [SBX_FENCE_SYMLINK]
  = { "symlink",
      "a component is a symbolic link, which the fence never "
      "follows",
      "the path with its links resolved" },
  [SBX_FENCE_ESCAPE]
  = { "escape", "it leaves the layer's root", "a path inside a granted root" },
  [SBX_FENCE_HARD_LINK] = { "hard-link", "the file has another hard link now",
                            "remove the other link, or write a new file" },
  [SBX_FENCE_CROSS]
  = { "cross-layer",
      "a rename between two layers (EXDEV in the sandbox as well)",
      "copy the file, then remove the old one" },
};

static const char *const access_names[] = {
  [SBX_FENCE_READ] = "read",
  [SBX_FENCE_WRITE] = "write",
  [SBX_FENCE_ERASE] = "remove",
};

const char *
sbx_fence_rule_name (enum sbx_fence_rule rule)
{
  return rules[rule].name;
}

const char *
sbx_fence_access_name (enum sbx_fence_access access)
{
  return access_names[access];
}

void
fence_explain (struct sbx_fence_verdict *v)
{
  v->reason = rules[v->rule].reason;
  v->grant = v->allowed ? NULL : rules[v->rule].grant;
}

int
sbx_fence_refusal (const struct sbx_fence_verdict *v, struct sbx_error *err)
{
  return sbx_fail (
      err, -EACCES, "fence: %s %s denied by %s (%s%s%s); allowed by: %s",
      access_names[v->access], v->path, rules[v->rule].name, v->reason,
      v->layer ? ", layer " : "", v->layer ? v->layer : "", v->grant);
}

char *
sbx_fence_verdict_json (const struct sbx_fence_verdict *v)
{
  yajl_gen g = sbx_json_new (false);
  if (g == NULL)
    return NULL;
  int r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_str (g, "path", v->path);
  if (r == 0)
    r = sbx_json_key_str (g, "access", access_names[v->access]);
  if (r == 0)
    r = sbx_json_key_bool (g, "allowed", v->allowed);
  if (r == 0)
    r = sbx_json_key_str (g, "rule", rules[v->rule].name);
  if (r == 0 && v->layer)
    r = sbx_json_key_str (g, "layer", v->layer);
  if (r == 0 && v->host)
    r = sbx_json_key_str (g, "host", v->host);
  if (r == 0)
    r = sbx_json_key_str (g, "reason", v->reason);
  if (r == 0 && v->grant)
    r = sbx_json_key_str (g, "grant", v->grant);
  if (r == 0)
    r = sbx_json_close (g, false);
  char *out = NULL;
  size_t len = 0;
  if (r == 0 && sbx_json_finish (g, &out, &len) == 0 && len > 0)
    out[len - 1] = '\0'; /* the newline sbx_json_finish appends */
  yajl_gen_free (g);
  return out;
}
