/* Lexical path helpers (no symlink resolution).  */
#ifndef SBX_PATH_H
#define SBX_PATH_H

#include <stdbool.h>

char *sbx_path_normalize (const char *path);
char *sbx_path_join (const char *base, const char *rel);
bool sbx_path_is_under (const char *path, const char *root);

#endif
