/* The state `state` and `list` print and hooks are given: the OCI state
   object from the record `create` wrote (sbx_state_write), the status
   computed now, and the limits as they are now (limits_report.h).  */
#include "config.h"

#include <string.h>

#include "common/json_gen.h"
#include "runtime/linux/state/state_store.h"
#include "runtime/linux/supervise/limits_report.h"

/* sbx's facts as create recorded them, but the limits as they are now. */
static int
emit_facts (yajl_gen g, const struct sbx_container *c, yajl_val facts)
{
  int r = sbx_json_open (g, false);
  for (size_t i = 0; r == 0 && i < facts->u.object.len; i++)
    {
      const char *key = facts->u.object.keys[i];
      yajl_val v = facts->u.object.values[i];
      r = sbx_json_key (g, key);
      if (r == 0 && strcmp (key, "limits") == 0 && YAJL_IS_OBJECT (v))
        r = sbx_limits_report (g, c, v);
      else if (r == 0)
        r = sbx_json_copy (g, v);
    }
  return r < 0 ? r : sbx_json_close (g, false);
}

int
sbx_state_emit (yajl_gen g, const struct sbx_container *c)
{
  static const char *k_oci[] = { "ociVersion", NULL };
  static const char *k_ann[] = { "annotations", NULL };
  static const char *k_created[] = { "created", NULL };
  static const char *k_facts[] = { "org.sbx-oci", NULL };
  enum sbx_status s = sbx_state_status (c);
  yajl_val oci = yajl_tree_get (c->doc, k_oci, yajl_t_string);
  int r = sbx_json_open (g, false);
  if (r == 0)
    r = sbx_json_key_str (g, "ociVersion",
                          oci ? YAJL_GET_STRING (oci) : SBX_OCI_VERSION);
  if (r == 0)
    r = sbx_json_key_str (g, "id", c->id);
  if (r == 0)
    r = sbx_json_key_str (g, "status", sbx_status_name (s));
  if (r == 0)
    r = sbx_json_key_int (g, "pid", s == SBX_STATUS_STOPPED ? 0 : c->pid);
  if (r == 0)
    r = sbx_json_key_str (g, "bundle", c->bundle ? c->bundle : "");
  if (r == 0 && (r = sbx_json_key (g, "annotations")) == 0)
    {
      yajl_val ann = yajl_tree_get (c->doc, k_ann, yajl_t_object);
      r = ann ? sbx_json_copy (g, ann)
              : (sbx_json_open (g, false) ?: sbx_json_close (g, false));
    }
  yajl_val created = yajl_tree_get (c->doc, k_created, yajl_t_string);
  if (r == 0 && created)
    r = sbx_json_key_str (g, "created", YAJL_GET_STRING (created));
  yajl_val facts = yajl_tree_get (c->doc, k_facts, yajl_t_object);
  if (r == 0 && facts && (r = sbx_json_key (g, "org.sbx-oci")) == 0)
    r = emit_facts (g, c, facts);
  return r < 0 ? r : sbx_json_close (g, false);
}
