/* Where sbx's own messages go.  Text: "sbx-oci: msg" on stderr.  With
   --log FILE they are appended there; with --log-format json each is one
   {"level","msg","time"} object per line, the shape runc writes and
   container tooling parses.  */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/json_gen.h"
#include "common/signal_hold.h"
#include "runtime/context.h"

static void
emit (const struct sbx_context *g, const char *level, const char *msg)
{
  int fd = 2;
  if (g->log_path)
    {
      fd = open (g->log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0)
        fd = 2;
    }
  if (g->log_format == SBX_LOG_JSON)
    {
      char stamp[64];
      sbx_utc_timestamp (stamp, sizeof stamp);
      yajl_gen j = sbx_json_new (false);
      char *line = NULL;
      if (j && sbx_json_open (j, false) == 0
          && sbx_json_key_str (j, "level", level) == 0
          && sbx_json_key_str (j, "msg", msg) == 0
          && sbx_json_key_str (j, "time", stamp) == 0
          && sbx_json_close (j, false) == 0
          && sbx_json_finish (j, &line, NULL) == 0)
        (void) sbx_write_nosigpipe (fd, line, strlen (line));
      free (line);
      if (j)
        yajl_gen_free (j);
    }
  else
    {
      char *line = NULL;
      int n
          = asprintf (&line, "sbx-oci: %s%s\n",
                      strcmp (level, "warning") == 0 ? "warning: " : "", msg);
      /* A reader of stderr that has gone (a closed pipe) loses the line;
         its SIGPIPE would end sbx-oci in the middle of a create.  */
      if (n > 0)
        (void) sbx_write_nosigpipe (fd, line, (size_t) n);
      free (line);
    }
  if (fd != 2)
    close (fd);
}

void
sbx_log_error (const struct sbx_context *g, const char *msg)
{
  emit (g, "error", msg);
  /* Tooling reads --log, people read stderr: say it on both.  */
  if (g->log_path && g->log_format == SBX_LOG_JSON)
    {
      struct sbx_context plain = *g;
      plain.log_path = NULL;
      plain.log_format = SBX_LOG_TEXT;
      emit (&plain, "error", msg);
    }
}

void
sbx_log_warning (const struct sbx_context *g, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  sbx_escape_controls (msg, sizeof msg);
  emit (g, "warning", msg);
}
