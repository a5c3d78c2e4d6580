#include "runtime/linux/supervise/limits_report.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/file_io.h"
#include "common/json_gen.h"
#include "runtime/linux/supervise/limits.h"

static const char *k_limits[] = { "org.sbx-oci", "limits", NULL };

static long long
get_int (yajl_val obj, const char *key)
{
  const char *path[] = { key, NULL };
  yajl_val v = yajl_tree_get (obj, path, yajl_t_number);
  return v && YAJL_IS_INTEGER (v) ? YAJL_GET_INTEGER (v) : 0;
}

static const char *
get_str (yajl_val obj, const char *key)
{
  const char *path[] = { key, NULL };
  yajl_val v = yajl_tree_get (obj, path, yajl_t_string);
  return v ? YAJL_GET_STRING (v) : NULL;
}

static int
open_recorded (yajl_val record, struct sbx_cgroup **cg, struct sbx_error *err)
{
  *cg = NULL;
  const char *path[] = { "cgroup", NULL };
  yajl_val v = yajl_tree_get (record, path, yajl_t_array);
  if (v == NULL)
    return 0;
  size_t n = v->u.array.len;
  cleanup_free char **strings = calloc (n + 1, sizeof *strings);
  if (strings == NULL)
    return -ENOMEM;
  for (size_t i = 0; i < n; i++)
    if ((strings[i] = YAJL_GET_STRING (v->u.array.values[i])) == NULL)
      return sbx_fail (err, -EINVAL,
                       "state: org.sbx-oci.limits.cgroup[%zu] "
                       "is not a string",
                       i);
  return sbx_cgroup_open (strings, cg, err);
}

int
sbx_container_cgroup (const struct sbx_container *c, struct sbx_cgroup **cg,
                      struct sbx_error *err)
{
  *cg = NULL;
  yajl_val record = yajl_tree_get (c->doc, k_limits, yajl_t_object);
  return record ? open_recorded (record, cg, err) : 0;
}

void
sbx_container_watcher_of (const struct sbx_container *c, pid_t *pid,
                          unsigned long long *start)
{
  yajl_val record = yajl_tree_get (c->doc, k_limits, yajl_t_object);
  long long p = record ? get_int (record, "watcherPid") : 0;
  *pid = p > 0 && p <= INT32_MAX ? (pid_t) p : 0;
  *start
      = *pid ? (unsigned long long) get_int (record, "watcherStartTime") : 0;
}

/* What the watcher last wrote (LIMITS_REPORT), parsed; NULL when it has
   written nothing.  */
static yajl_val
watcher_report (const struct sbx_container *c)
{
  cleanup_free char *path = sbx_state_file (c, SBX_LIMITS_REPORT);
  cleanup_free char *text = NULL;
  size_t len;
  struct sbx_error ignored = { 0 };
  if (path == NULL
      || sbx_read_file_at (c->dir_fd, SBX_LIMITS_REPORT, path, 4096, &text,
                           &len, &ignored)
             < 0)
    return NULL;
  return yajl_tree_parse (text, NULL, 0);
}

static int
breach_key (yajl_gen g, const char *breach)
{
  int r = sbx_json_key (g, "breach");
  if (r == 0 && breach)
    return sbx_json_str (g, breach);
  return r == 0 && yajl_gen_null (g) != yajl_gen_status_ok ? -EINVAL : r;
}

/* Quota: the kernel's own counters, live.  The cgroup is gone after
   delete; then the state has no usage to tell.  A wall clock the watcher
   ran out is the breach unless the kernel's memory limit struck.  */
static int
quota_usage (yajl_gen g, const struct sbx_container *c, yajl_val record)
{
  struct sbx_cgroup *cg = NULL;
  struct sbx_cgroup_usage u;
  struct sbx_error ignored = { 0 };
  bool live = open_recorded (record, &cg, &ignored) == 0 && cg
              && sbx_cgroup_usage (cg, &u, &ignored) == 0;
  if (cg)
    sbx_cgroup_free (cg);
  bool oom = live && u.oom_kills > 0;
  yajl_val report = oom ? NULL : watcher_report (c);
  const char *clock = report ? get_str (report, "breach") : NULL;
  int r = live || clock ? breach_key (g, oom ? "memory" : clock) : 0;
  if (report)
    yajl_tree_free (report);
  if (!live)
    return r;
  if (u.memory_peak >= 0)
    r = r ?: sbx_json_key_int (g, "peakMemoryBytes", u.memory_peak);
  if (u.pids_peak >= 0)
    r = r ?: sbx_json_key_int (g, "peakProcesses", u.pids_peak);
  if (u.pids_max_hits >= 0)
    r = r ?: sbx_json_key_int (g, "pidsLimitHits", u.pids_max_hits);
  return r;
}

/* Monitor: what the watcher last wrote, copied key by key.  */
static int
monitor_usage (yajl_gen g, const struct sbx_container *c)
{
  yajl_val doc = watcher_report (c);
  if (doc == NULL)
    return 0;
  int r = 0;
  for (size_t i = 0; r == 0 && YAJL_IS_OBJECT (doc) && i < doc->u.object.len;
       i++)
    {
      r = sbx_json_key (g, doc->u.object.keys[i]);
      r = r ?: sbx_json_copy (g, doc->u.object.values[i]);
    }
  yajl_tree_free (doc);
  return r;
}

/* Per limit, what holds it, as the outcome of `run` says it: a created
   container's quota, RLIMIT_NPROC for its processes where create could
   set it, or its watcher's samples.  */
static int
held_by (yajl_gen g, const char *mechanism, bool memory, bool pids,
         bool pids_rlimit)
{
  if (mechanism == NULL || (!memory && !pids)
      || (strcmp (mechanism, "quota") != 0
          && strcmp (mechanism, "monitor") != 0))
    return 0;
  const char *by = strcmp (mechanism, "quota") == 0 ? "quota" : "sampled";
  int r = sbx_json_key (g, "heldBy");
  r = r ?: sbx_json_open (g, false);
  if (memory)
    r = r ?: sbx_json_key_str (g, "memory", by);
  if (pids)
    r = r ?: sbx_json_key_str (g, "pids", pids_rlimit ? "rlimit" : by);
  return r ?: sbx_json_close (g, false);
}

int
sbx_limits_report (yajl_gen g, const struct sbx_container *c, yajl_val record)
{
  const char *mechanism = get_str (record, "mechanism");
  int r = sbx_json_open (g, false);
  r = r ?: sbx_json_key_str (g, "mechanism", mechanism ? mechanism : "none");
  long long memory = get_int (record, "memoryLimit");
  long long pids = get_int (record, "pidsLimit");
  if (memory > 0)
    r = r ?: sbx_json_key_int (g, "memoryLimit", memory);
  if (pids > 0)
    r = r ?: sbx_json_key_int (g, "pidsLimit", pids);
  const char *rl[] = { "pidsRlimit", NULL };
  r = r
          ?: held_by (g, mechanism, memory > 0, pids > 0,
                      YAJL_IS_TRUE (yajl_tree_get (record, rl, yajl_t_true)));
  long long wall = get_int (record, "wallClockMs");
  if (wall > 0)
    r = r ?: sbx_json_key_int (g, "wallClockMs", wall);
  long long watcher = get_int (record, "watcherPid");
  if (watcher > 0)
    r = r
            ?: sbx_json_key_bool (
                g, "monitorAlive",
                sbx_pid_alive_since ((pid_t) watcher,
                                     (unsigned long long) get_int (
                                         record, "watcherStartTime")));
  if (mechanism && strcmp (mechanism, "monitor") == 0)
    r = r ?: monitor_usage (g, c);
  else
    r = r ?: quota_usage (g, c, record);
  return r ?: sbx_json_close (g, false);
}
