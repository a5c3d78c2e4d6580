/* What policy resolution asks of the real host, on every system.  */
#ifndef SBX_HOST_PATHS_H
#define SBX_HOST_PATHS_H

#include <stdint.h>
#include <sys/types.h>

#include "policy/host_facts.h"

/* The kind of PATH, not following a last symlink (lstat).  CTX unused:
   the shape of sbx_host_facts.path_kind.  */
enum sbx_path_kind sbx_host_path_kind (const char *path, void *ctx);

/* What node PATH is (lstat): sbx_host_facts.path_node.  */
char sbx_host_path_node (const char *path, uint32_t *major, uint32_t *minor,
                         void *ctx);

/* The text of the regular file PATH (a link followed), at most 256 KiB
   and holding no NUL byte (-EILSEQ): sbx_host_facts.read_text.  */
int sbx_host_read_text (const char *path, char **out, void *ctx);

/* The caller's home: $HOME, else UID's entry in /etc/passwd (on macOS,
   in the user database); NULL when neither is absolute.  The result may
   live in static storage until the next call.  */
const char *sbx_host_home (uid_t uid);

/* UID's home in /etc/passwd (on macOS, the user database), whatever HOME
   says; NULL when it has none.  Static storage, as sbx_host_home's.  */
const char *sbx_account_home (uid_t uid);

/* The caller's hard limit of RESOURCE, 0 when it cannot be read (nothing
   above 0 is allowed then: refused, not widened):
   sbx_host_facts.rlimit_hard.  */
uint64_t sbx_host_rlimit_hard (int resource);

#ifndef __APPLE__
/* The home of UID's first entry in the passwd file PASSWD, NULL when it
   has none or it does not fit PATH_MAX: what sbx_host_home reads from
   /etc/passwd.  The result lives in static storage until the next call. */
const char *sbx_passwd_home (const char *passwd, uid_t uid);
#endif

#endif
