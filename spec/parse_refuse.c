/* Fields of config.json that bubblewrap cannot honour.  The runtime spec
   lets a runtime refuse what it cannot do, and a clear error at create is
   better than a container that silently lacks what was asked for.  */
#include <string.h>

#include "spec/parse_sections.h"

/* A non-empty string at KEY is refused with WHY; absent, null or "" (how
   podman and CRI write "no label") is accepted.  */
static int
refuse_string (struct sbx_jctx *c, yajl_val obj, const char *key,
               const char *why)
{
  yajl_val v = NULL;
  size_t mark;
  int r = json_field (c, obj, key, 0, &v, &mark);
  if (r <= 0)
    return r;
  if (YAJL_IS_STRING (v) && YAJL_GET_STRING (v)[0] == '\0')
    {
      jpath_pop (c, mark);
      return 0;
    }
  return jfail (c, "%s", why);
}

int
sbx_refuse_process (struct sbx_jctx *c, yajl_val obj)
{
  int r = refuse_string (c, obj, "apparmorProfile",
                         "bubblewrap cannot apply an AppArmor profile; "
                         "remove it or use runc or crun");
  if (r >= 0)
    r = refuse_string (c, obj, "selinuxLabel",
                       "sbx-oci does not pass SELinux labels to bubblewrap "
                       "yet (its --exec-label could apply this one); remove "
                       "it or use runc or crun");
  return r < 0 ? r : 0;
}

int
sbx_refuse_linux (struct sbx_jctx *c, yajl_val obj)
{
  int r = refuse_string (c, obj, "mountLabel",
                         "sbx-oci does not pass SELinux labels to bubblewrap "
                         "yet (its --file-label could apply this one); remove "
                         "it or use runc or crun");
  return r < 0 ? r : 0;
}
