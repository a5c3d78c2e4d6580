/* The host's path sockets that take connections or datagrams, as
   /proc/net/unix lists them at launch: hardened defaults hide those
   outside the sandbox's writable roots (policy/agent.c).  */
#ifndef SBX_LINUX_UNIX_SOCKETS_H
#define SBX_LINUX_UNIX_SOCKETS_H

#include <stdio.h>

#include "common/strv.h"

/* From F (the text of /proc/net/unix), the absolute paths of listening
   stream and seqpacket sockets and of bound datagram sockets, each once,
   at most SBX_UNIX_SOCKETS_MAX.  Abstract and unnamed sockets are left
   out (the sandbox's own network namespace already keeps it from the
   host's abstract ones), and so are relative paths, which name no file
   sbx could find.  Returns 0 or -ENOMEM.  */
int sbx_unix_sockets_parse (FILE *f, struct strv *paths);

/* The same from this process's /proc/net/unix; a file that cannot be
   read gives no paths.  */
int sbx_unix_sockets_listening (struct strv *paths);

#define SBX_UNIX_SOCKETS_MAX 4096

#endif
