/* Small helpers over yajl_gen for the JSON sbx writes (state, outcome,
   features, check).  Each returns 0 or -ENOMEM/-EINVAL.  */
#ifndef SBX_JSON_GEN_H
#define SBX_JSON_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "common/strv.h"

yajl_gen sbx_json_new (bool pretty);
int sbx_json_str (yajl_gen g, const char *s);
int sbx_json_key_str (yajl_gen g, const char *key, const char *value);
int sbx_json_key_int (yajl_gen g, const char *key, long long value);
int sbx_json_key_bool (yajl_gen g, const char *key, bool value);
int sbx_json_key_strv (yajl_gen g, const char *key, const struct strv *v);
int sbx_json_key (yajl_gen g, const char *key);
int sbx_json_open (yajl_gen g, bool array);
int sbx_json_close (yajl_gen g, bool array);
/* Copy the generated text out (NUL-terminated, newline appended).  */
int sbx_json_finish (yajl_gen g, char **out, size_t *len);

/* Copy a parsed JSON value into G.  */
int sbx_json_copy (yajl_gen g, yajl_val v);

#endif
