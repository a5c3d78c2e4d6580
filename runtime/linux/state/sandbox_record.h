/* A container's second record, beside state.json and independent of it:
   what `delete --force` needs to end everything of the container when
   state.json is missing, truncated or corrupt (a create killed before
   writing it, a file damaged later).  One line per fact, appended by
   `create` as soon as the fact is known and before anything depends on
   it, each in one write(2) (a torn last line is ignored):
     cgroup=KEY=PATH    the cgroup (sbx_cgroup_to_strv), written BEFORE it
                        is made, so a create killed while making it
                        still leaves its name
     nocgroup           the cgroup above was not made (it existed)
     pid=PID START      the sandbox's first process and its start time
     watcher=PID START  the limits watcher
     forwarder=PID START  the host ports' forwarder
                        (runtime/linux/supervise/port_forward.h)
   The record is data like state.json: a cgroup path is used only when it
   lies on a cgroup file system (sbx_cgroup_open), a pid only together
   with its start time.  */
#ifndef SBX_SANDBOX_RECORD_H
#define SBX_SANDBOX_RECORD_H

#include <sys/types.h>

#include "common/error.h"
#include "common/strv.h"

#define SBX_SANDBOX_RECORD "sandbox.rec"

struct sbx_record
{
  struct strv cgroup; /* empty: none */
  pid_t pid;          /* 0: none */
  unsigned long long start;
  pid_t watcher; /* 0: none */
  unsigned long long watcher_start;
  pid_t forwarder; /* 0: none */
  unsigned long long forwarder_start;
};

/* Append one line ("KEY=VALUE" or a bare word) to DIR's record.  */
int sbx_record_append (const char *dir, const char *line,
                       struct sbx_error *err);

/* Append the cgroup STRINGS (sbx_cgroup_to_strv's), one line each.  */
int sbx_record_cgroup (const char *dir, const struct strv *strings,
                       struct sbx_error *err);

/* Append "KEY=PID START".  */
int sbx_record_pid (const char *dir, const char *key, pid_t pid,
                    unsigned long long start, struct sbx_error *err);

/* Read DIR's record; a missing one reads as empty.  */
int sbx_record_read (const char *dir, struct sbx_record *out);

void sbx_record_free (struct sbx_record *rec);

#endif
