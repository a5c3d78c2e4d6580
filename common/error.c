#include "common/error.h"
#include "common/utf8.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t
sbx_text_char (const unsigned char *p)
{
  if (*p < 0x80)
    return *p >= 0x20 && *p != 0x7f;
  /* C1 controls (U+0080-U+009F, C2 80-9F) are controls.  */
  return *p == 0xc2 && p[1] <= 0x9f ? 0 : sbx_utf8_char (p);
}

/* S into OUT (SIZE bytes, NUL-ended) with each byte that is not text
   (sbx_text_char) as \xHH, cut where the next one would not fit; the
   length of all of it.  */
static size_t
escape_into (const char *s, char *out, size_t size)
{
  size_t o = 0, need = 0;
  for (const unsigned char *p = (const unsigned char *) s; *p;)
    {
      size_t text = sbx_text_char (p), len = text ? text : 4;
      if (out && need == o && o + len < size)
        {
          if (text)
            memcpy (out + o, p, text);
          else
            snprintf (out + o, size - o, "\\x%02x", *p);
          o += len;
        }
      need += len;
      p += text ? text : 1;
    }
  if (out && size > 0)
    out[o] = '\0';
  return need;
}

void
sbx_escape_controls (char *msg, size_t size)
{
  char out[SBX_ERROR_MSG_MAX];
  escape_into (msg, out, sizeof out);
  snprintf (msg, size, "%s", out);
}

char *
sbx_escaped_dup (const char *s)
{
  size_t size = escape_into (s, NULL, 0) + 1;
  char *out = malloc (size);
  if (out)
    escape_into (s, out, size);
  return out;
}

static int __attribute__ ((format (printf, 4, 0)))
vfail (struct sbx_error *err, int code, int with_errno, const char *fmt,
       va_list ap)
{
  /* A positive or zero code is a caller bug; never let it read as success. */
  if (code >= 0)
    code = -EINVAL;
  if (err == NULL || err->code != 0)
    return code;
  err->code = code;
  int n = vsnprintf (err->msg, sizeof err->msg, fmt, ap);
  if (with_errno && n >= 0 && (size_t) n < sizeof err->msg)
    snprintf (err->msg + n, sizeof err->msg - n, ": %s", strerror (-code));
  sbx_escape_controls (err->msg, sizeof err->msg);
  return code;
}

int
sbx_fail (struct sbx_error *err, int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  code = vfail (err, code, 0, fmt, ap);
  va_end (ap);
  return code;
}

int
sbx_fail_kind (struct sbx_error *err, enum sbx_error_kind kind, int code,
               const char *fmt, ...)
{
  bool first = err != NULL && err->code == 0;
  va_list ap;
  va_start (ap, fmt);
  code = vfail (err, code, 0, fmt, ap);
  va_end (ap);
  if (first)
    err->kind = kind;
  return code;
}

int
sbx_fail_usage (struct sbx_error *err, const char *fmt, ...)
{
  bool first = err != NULL && err->code == 0;
  va_list ap;
  va_start (ap, fmt);
  int code = vfail (err, -EINVAL, 0, fmt, ap);
  va_end (ap);
  if (first)
    err->kind = SBX_ERROR_USAGE;
  return code;
}

int
sbx_refuse (struct sbx_error *err, int code, const char *field,
            const char *fmt, ...)
{
  if (err == NULL || err->code != 0)
    return code < 0 ? code : -EINVAL;
  char why[SBX_ERROR_MSG_MAX];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
  if (field)
    code = sbx_fail_kind (err, SBX_ERROR_REFUSED, code, "%s: %s", field, why);
  else
    code = sbx_fail_kind (err, SBX_ERROR_REFUSED, code, "%s", why);
  snprintf (err->field, sizeof err->field, "%s", field ? field : "");
  sbx_escape_controls (err->field, sizeof err->field);
  return code;
}

int
sbx_refuse_path (struct sbx_error *err, int code, const char *fmt, ...)
{
  char line[SBX_ERROR_MSG_MAX];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  char *why = strstr (line, ": ");
  if (why == NULL)
    return sbx_refuse (err, code, NULL, "%s", line);
  *why = '\0';
  return sbx_refuse (err, code, line, "%s", why + 2);
}

int
sbx_fail_errno (struct sbx_error *err, int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  code = vfail (err, code, 1, fmt, ap);
  va_end (ap);
  return code;
}

int
sbx_error_prefix (struct sbx_error *err, const char *fmt, ...)
{
  char prefix[SBX_ERROR_MSG_MAX], joined[SBX_ERROR_MSG_MAX];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (prefix, sizeof prefix, fmt, ap);
  va_end (ap);
  snprintf (joined, sizeof joined, "%s: %s", prefix, err->msg);
  memcpy (err->msg, joined, sizeof err->msg);
  return err->code;
}

void
sbx_error_clear (struct sbx_error *err)
{
  err->code = 0;
  err->kind = SBX_ERROR_RUNTIME;
  err->msg[0] = '\0';
  err->field[0] = '\0';
}
