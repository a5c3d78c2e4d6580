/* The one error convention of sbx-oci.
 *
 * Functions return 0 (or a non-negative value) on success and a negative
 * errno-style code on failure, after filling a caller-owned struct sbx_error
 * exactly once, where the failure happened.  Only main() prints it.  Messages
 * are one line, lower-case, name the thing that is wrong and, where possible,
 * the fix.  */
#ifndef SBX_ERROR_H
#define SBX_ERROR_H

#include <stddef.h>

#define SBX_ERROR_MSG_MAX 1024
#define SBX_ERROR_FIELD_MAX 256

/* What kind of failure an error is, as far as the caller of sbx-oci must
   tell them apart: runtime/exit_status.h turns it into the exit status.  */
enum sbx_error_kind
{
  SBX_ERROR_RUNTIME = 0,    /* anything not marked otherwise */
  SBX_ERROR_USAGE,          /* the command line itself is wrong */
  SBX_ERROR_NO_CONTAINER,   /* the id names no container */
  SBX_ERROR_NOT_FOUND,      /* the command to run does not exist */
  SBX_ERROR_NOT_EXECUTABLE, /* the command exists but cannot be executed */
  SBX_ERROR_REFUSED,        /* the config is refused as written: invalid, or
                               more than the policy, the operator's ceiling
                               or the backend allows */
};

struct sbx_error
{
  int code;                    /* negative errno-style value, 0 when unset */
  enum sbx_error_kind kind;    /* set with the message, never after */
  char msg[SBX_ERROR_MSG_MAX]; /* the whole line, without a trailing newline */
  /* REFUSED: the config field the refusal names, as a JSON path
     ("mounts[2].source"); "" when it names none (invalid JSON).  */
  char field[SBX_ERROR_FIELD_MAX];
};

/* The length of the character at P when it is text to show as it is: a
   printable ASCII byte, or a UTF-8 sequence that is well formed and no C1
   control; 0 for a control character or a byte of no such sequence.  */
size_t sbx_text_char (const unsigned char *p);

/* MSG (of SIZE bytes) made one line of valid UTF-8 whatever a config or a
   sandbox put in it: each byte that is not text (a newline in a path, a
   terminal escape, a C1 control, invalid UTF-8 in a name) becomes \xHH,
   cut to fit.  Every message sbx-oci prints has been through it.  */
void sbx_escape_controls (char *msg, size_t size);

/* A copy of S, to be freed, escaped as sbx_escape_controls does but
   whole (a reason, a line of a report); NULL when out of memory.  */
char *sbx_escaped_dup (const char *s);

/* Fill ERR (if not already filled) and return CODE, which must be negative. */
int sbx_fail (struct sbx_error *err, int code, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

/* Like sbx_fail, with ": strerror(-code)" appended.  */
int sbx_fail_errno (struct sbx_error *err, int code, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

/* Like sbx_fail, and the error is of KIND.  */
int sbx_fail_kind (struct sbx_error *err, enum sbx_error_kind kind, int code,
                   const char *fmt, ...)
    __attribute__ ((format (printf, 4, 5)));

/* A wrong command line: sbx_fail_kind (SBX_ERROR_USAGE, -EINVAL, ...).  */
int sbx_fail_usage (struct sbx_error *err, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

/* Refuse the config at FIELD (a JSON path, or NULL for the config as a
   whole): an error of kind SBX_ERROR_REFUSED whose line is "FIELD: why".
   Every refusal of what a config asks for goes through here, so that the
   exit status and the outcome can name the field apart from the line.  */
int sbx_refuse (struct sbx_error *err, int code, const char *field,
                const char *fmt, ...) __attribute__ ((format (printf, 4, 5)));

/* sbx_refuse for a message built whole, as "PATH: why", where PATH is
   the refused field's JSON path and holds no ": " (indices, names).  */
int sbx_refuse_path (struct sbx_error *err, int code, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

/* Put CONTEXT and ": " in front of an error already filled (e.g. a bundle
   path in front of a JSON path).  Returns err->code.  */
int sbx_error_prefix (struct sbx_error *err, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

void sbx_error_clear (struct sbx_error *err);

#endif
