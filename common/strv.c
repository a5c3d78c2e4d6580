#include "common/strv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
strv_push_owned (struct strv *sv, char *s)
{
  if (s == NULL)
    return -ENOMEM;
  if (sv->n + 2 > sv->cap)
    {
      size_t cap = sv->cap ? sv->cap * 2 : 8;
      char **v = realloc (sv->v, cap * sizeof *v);
      if (v == NULL)
        {
          free (s);
          return -ENOMEM;
        }
      sv->v = v;
      sv->cap = cap;
    }
  sv->v[sv->n++] = s;
  sv->v[sv->n] = NULL;
  return 0;
}

int
strv_push (struct strv *sv, const char *s)
{
  return strv_push_owned (sv, strdup (s));
}

int
strv_pushf (struct strv *sv, const char *fmt, ...)
{
  char *s = NULL;
  va_list ap;
  va_start (ap, fmt);
  int r = vasprintf (&s, fmt, ap);
  va_end (ap);
  if (r < 0)
    return -ENOMEM;
  return strv_push_owned (sv, s);
}

bool
strv_contains (const struct strv *sv, const char *s)
{
  for (size_t i = 0; i < sv->n; i++)
    if (strcmp (sv->v[i], s) == 0)
      return true;
  return false;
}

char *
strv_join_list (const struct strv *sv, size_t max)
{
  size_t len = 1, shown = sv->n < max ? sv->n : max;
  for (size_t i = 0; i < shown; i++)
    len += strlen (sv->v[i]) + 2;
  len += sizeof " and 18446744073709551615 more";
  char *out = malloc (len), *p = out;
  if (out == NULL)
    return NULL;
  *p = '\0';
  for (size_t i = 0; i < shown; i++)
    p += sprintf (p, "%s%s", i ? ", " : "", sv->v[i]);
  if (sv->n > shown)
    sprintf (p, "%s%zu more", shown ? " and " : "", sv->n - shown);
  return out;
}

void
strv_free (struct strv *sv)
{
  for (size_t i = 0; i < sv->n; i++)
    free (sv->v[i]);
  free (sv->v);
  sv->v = NULL;
  sv->n = sv->cap = 0;
}

char **
strv_steal (struct strv *sv)
{
  char **v = sv->v ? sv->v : calloc (1, sizeof *v);
  sv->v = NULL;
  sv->n = sv->cap = 0;
  return v;
}

const char *
strv_env_value (char *const *env, const char *name)
{
  size_t len = strlen (name);
  for (char *const *e = env; e && *e; e++)
    if (strncmp (*e, name, len) == 0 && (*e)[len] == '=')
      return *e + len + 1;
  return NULL;
}
