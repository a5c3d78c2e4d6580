/* The host's path kinds as one plan saw them: sbx_host_facts.path_kind
   answered from memory for a path asked before, and without a system
   call for a path below one known to be absent or not a directory.

   Policy resolution asks about the same paths several times (a
   workspace's .git, each start-up file once as protected metadata and
   once as a home's), and about whole lists below a directory the host
   may not have (/run/user/UID): a plan asks some 140 questions, a third
   of them repeats.  One answer per path also makes the plan see one
   host, not a host that changed between two of its questions.  */
#ifndef SBX_PATH_KINDS_H
#define SBX_PATH_KINDS_H

#include <stddef.h>

#include "policy/host_facts.h"

struct sbx_path_seen;

struct sbx_path_kinds
{
  struct sbx_path_seen *slot; /* open addressing; CAP a power of two */
  size_t n, cap;
};

/* The kind of PATH as lstat gives it, asked of the host at most once:
   sbx_host_facts.path_kind with KINDS, a struct sbx_path_kinds zeroed
   before the first question, as its CTX.  A path below an ancestor seen
   absent, or seen as anything but a directory or a symlink, is absent
   (lstat would fail with ENOENT or ENOTDIR).  Only ENOENT and ENOTDIR
   are kept as absent: another error is asked again.  */
enum sbx_path_kind sbx_path_kinds_ask (const char *path, void *kinds);

void sbx_path_kinds_free (struct sbx_path_kinds *kinds);

#endif
