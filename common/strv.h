/* NULL-terminated string vectors: argv, env, path lists.  */
#ifndef SBX_STRV_H
#define SBX_STRV_H

#include <stdbool.h>
#include <stddef.h>

struct strv
{
  char **v; /* always NULL-terminated once anything was added */
  size_t n;
  size_t cap;
};

/* Append a copy of S.  Returns 0 or -ENOMEM.  */
int strv_push (struct strv *sv, const char *s);
/* Append S without copying; SV takes ownership.  */
int strv_push_owned (struct strv *sv, char *s);
int strv_pushf (struct strv *sv, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));
bool strv_contains (const struct strv *sv, const char *s);
/* The first MAX entries of SV joined by ", " (all when fewer), then
   " and N more" for the rest: a list for one line of a report.  NULL
   when out of memory.  */
char *strv_join_list (const struct strv *sv, size_t max);
/* The value of NAME in ENV ("NAME=value" entries, NULL-terminated; ENV
   may be NULL), or NULL.  */
const char *strv_env_value (char *const *env, const char *name);
void strv_free (struct strv *sv);
/* Give up ownership of the vector (NULL-terminated); SV becomes empty.  */
char **strv_steal (struct strv *sv);

static inline void
strv_cleanup (struct strv *sv)
{
  strv_free (sv);
}
#define cleanup_strv __attribute__ ((cleanup (strv_cleanup)))

#endif
