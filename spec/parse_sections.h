/* The sections of config.json, one parser each; spec_parse.c calls them
   with the path at the section's key.  */
#ifndef SBX_PARSE_SECTIONS_H
#define SBX_PARSE_SECTIONS_H

#include "spec/parse_json.h"
#include "spec/spec.h"

int sbx_parse_process (struct sbx_jctx *c, yajl_val obj,
                       struct sbx_process *process);
int sbx_parse_linux (struct sbx_jctx *c, yajl_val obj, struct sbx_linux *lx);
/* Refuse the fields of the process and linux sections that bubblewrap
   cannot honour (parse_refuse.c).  */
int sbx_refuse_process (struct sbx_jctx *c, yajl_val obj);
int sbx_refuse_linux (struct sbx_jctx *c, yajl_val obj);
/* EXT must hold the defaults (sbx_ext_init) before parsing.  */
int sbx_parse_ext (struct sbx_jctx *c, yajl_val obj, struct sbx_ext *ext);
void sbx_ext_init (struct sbx_ext *ext);

#endif
