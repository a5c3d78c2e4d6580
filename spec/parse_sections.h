/* The sections of config.json, one parser each; spec_parse.c calls them
   with the path at the section's key.  */
#ifndef SBX_PARSE_SECTIONS_H
#define SBX_PARSE_SECTIONS_H

#include "spec/parse_json.h"
#include "spec/spec.h"

int sbx_parse_process (struct sbx_jctx *c, yajl_val obj,
                       struct sbx_process *process);
int sbx_parse_linux (struct sbx_jctx *c, yajl_val obj, struct sbx_linux *lx);
/* linux.resources' memory, cpu and devices settings (parse_resources.c).  */
int sbx_parse_resources_tuning (struct sbx_jctx *c, yajl_val resources,
                                struct sbx_resources_tuning *t);
/* linux.devices (parse_devices.c).  */
int sbx_parse_devices (struct sbx_jctx *c, yajl_val obj, struct sbx_linux *lx);
/* EXT must hold the defaults (sbx_ext_init) before parsing.  */
int sbx_parse_ext (struct sbx_jctx *c, yajl_val obj, struct sbx_ext *ext);
void sbx_ext_init (struct sbx_ext *ext);
/* "sbx.network", a word or {"mode", "hostPorts"} (parse_network.c).  */
int sbx_parse_network (struct sbx_jctx *c, yajl_val sbx, struct sbx_ext *ext);

/* The extension's vocabulary, one table per enum (spec_names.c): the
   parser reads with them, the ceiling's parser too, and sbx_*_name
   writes with them.  */
#define SBX_MODE_JENUM_N 3
#define SBX_NET_JENUM_N 3
#define SBX_ENV_MODE_JENUM_N 2
#define SBX_LEVEL_JENUM_N 3
extern const struct jenum sbx_mode_jenum[SBX_MODE_JENUM_N];
extern const struct jenum sbx_net_jenum[SBX_NET_JENUM_N];
extern const struct jenum sbx_env_mode_jenum[SBX_ENV_MODE_JENUM_N];
extern const struct jenum sbx_level_jenum[SBX_LEVEL_JENUM_N];

/* JSON text -> a yajl tree whose top level is an object, with the checks
   every input of ours gets (nesting depth, no NUL in strings).  */
int sbx_json_parse_object (const char *json, size_t len, yajl_val *out,
                           struct sbx_error *err);

/* Every key path TOP sets ("process.user.uid", "mounts[].options"), once
   each, into OUT: what the ceiling's allow-list is checked against.  A
   path too long to spell is recorded as one no allow-list knows.  Returns
   0 or -ENOMEM.  */
int sbx_spec_collect_fields (yajl_val top, struct strv *out);

/* After parsing TOP with C: a key below "sbx" that no parser looked up is
   an error naming the closest known key; any other such key goes into
   IGNORED as its JSON path (spec_unknown.c).  */
int sbx_spec_check_unknown (struct sbx_jctx *c, yajl_val top,
                            struct strv *ignored);

#endif
