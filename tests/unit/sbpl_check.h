/* Test helper: a small s-expression reader and a structural checker for
   generated Seatbelt profiles.  The checker accepts only operations and
   filters from an allow-list of SBPL names known to be real, so a typo in
   the generator fails the tests instead of failing on a Mac.  */
#ifndef SBX_TEST_SBPL_CHECK_H
#define SBX_TEST_SBPL_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum sx_kind
{
  SX_LIST,
  SX_SYMBOL,
  SX_STRING,
  SX_REGEX, /* #"..." : the text between the quotes, undecoded */
};

struct sx
{
  enum sx_kind kind;
  char *text; /* symbol name or decoded string */
  struct sx **kids;
  size_t n;
};

struct sx_reader
{
  const char *p;
  char why[256];
};

static void
sx_free (struct sx *x)
{
  if (x == NULL)
    return;
  for (size_t i = 0; i < x->n; i++)
    sx_free (x->kids[i]);
  free (x->kids);
  free (x->text);
  free (x);
}

static struct sx *
sx_new (enum sx_kind kind)
{
  struct sx *x = calloc (1, sizeof *x);
  if (x == NULL)
    abort ();
  x->kind = kind;
  return x;
}

static void
sx_append (struct sx *list, struct sx *kid)
{
  list->kids = realloc (list->kids, (list->n + 1) * sizeof *list->kids);
  if (list->kids == NULL)
    abort ();
  list->kids[list->n++] = kid;
}

__attribute__ ((format (printf, 2, 3))) static struct sx *
sx_error (struct sx_reader *rd, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (rd->why, sizeof rd->why, fmt, ap);
  va_end (ap);
  return NULL;
}

static void
sx_skip_space (struct sx_reader *rd)
{
  for (;;)
    {
      while (*rd->p == ' ' || *rd->p == '\n' || *rd->p == '\t')
        rd->p++;
      if (*rd->p != ';')
        return;
      while (*rd->p && *rd->p != '\n')
        rd->p++;
    }
}

/* A string literal: only the escapes the generator may write, and no raw
   control characters.  */
static struct sx *
sx_read_string (struct sx_reader *rd)
{
  struct sx *s = sx_new (SX_STRING);
  size_t cap = strlen (rd->p) + 1, n = 0;
  s->text = malloc (cap);
  for (rd->p++; *rd->p != '"'; rd->p++)
    {
      unsigned char c = (unsigned char) *rd->p;
      if (c == '\0')
        return sx_free (s), sx_error (rd, "unterminated string");
      if (c < 0x20 || c == 0x7f)
        return sx_free (s), sx_error (rd, "raw control byte in a string");
      if (c == '\\')
        {
          char e = *++rd->p;
          c = e == '"'    ? '"'
              : e == '\\' ? '\\'
              : e == 'n'  ? '\n'
              : e == 't'  ? '\t'
              : e == 'r'  ? '\r'
                          : 0;
          if (c == 0)
            return sx_free (s), sx_error (rd, "unknown escape \\%c", e);
        }
      s->text[n++] = (char) c;
    }
  rd->p++;
  s->text[n] = '\0';
  return s;
}

/* A regex literal #"...": the generator writes only fixed ones, with no
   quote or backslash inside.  */
static struct sx *
sx_read_regex (struct sx_reader *rd)
{
  const char *start = rd->p + 2;
  const char *end = strchr (start, '"');
  if (end == NULL)
    return sx_error (rd, "unterminated regex");
  if (memchr (start, '\\', (size_t) (end - start)))
    return sx_error (rd, "a backslash in a regex");
  struct sx *x = sx_new (SX_REGEX);
  x->text = strndup (start, (size_t) (end - start));
  rd->p = end + 1;
  return x;
}

static struct sx *
sx_read (struct sx_reader *rd)
{
  sx_skip_space (rd);
  if (*rd->p == '"')
    return sx_read_string (rd);
  if (rd->p[0] == '#' && rd->p[1] == '"')
    return sx_read_regex (rd);
  if (*rd->p == '(')
    {
      struct sx *list = sx_new (SX_LIST);
      rd->p++;
      for (;;)
        {
          sx_skip_space (rd);
          if (*rd->p == ')')
            {
              rd->p++;
              return list;
            }
          if (*rd->p == '\0')
            return sx_free (list), sx_error (rd, "unbalanced: missing ')'");
          struct sx *kid = sx_read (rd);
          if (kid == NULL)
            return sx_free (list), NULL;
          sx_append (list, kid);
        }
    }
  size_t len = strspn (rd->p, "abcdefghijklmnopqrstuvwxyz0123456789*-");
  if (len == 0)
    return sx_error (rd, "unexpected character '%c'", *rd->p);
  struct sx *sym = sx_new (SX_SYMBOL);
  sym->text = strndup (rd->p, len);
  rd->p += len;
  return sym;
}

/* All top-level forms of TEXT as one list, or NULL with RD->why set.  */
static struct sx *
sx_read_all (struct sx_reader *rd, const char *text)
{
  rd->p = text;
  rd->why[0] = '\0';
  struct sx *all = sx_new (SX_LIST);
  for (;;)
    {
      sx_skip_space (rd);
      if (*rd->p == '\0')
        return all;
      if (*rd->p == ')')
        return sx_free (all), sx_error (rd, "unbalanced: stray ')'");
      struct sx *form = sx_read (rd);
      if (form == NULL)
        return sx_free (all), NULL;
      sx_append (all, form);
    }
}

static bool
sx_is (const struct sx *x, enum sx_kind kind, const char *text)
{
  return x->kind == kind && (text == NULL || strcmp (x->text, text) == 0);
}

static bool
sx_in (const char *name, const char *const *names)
{
  for (; *names; names++)
    if (strcmp (name, *names) == 0)
      return true;
  return false;
}

/* Operations the generator may name; all real SBPL operations, each in a
   profile that runs on Macs: file-write-setugid and file-write-mode in
   Homebrew's sandbox.rb (outside file-write* since macOS 12.3,
   Homebrew/brew#13404); file-ioctl in Codex's seatbelt base policy;
   file-write-unlink in the peer agent sandbox's generator; mach-lookup in
   all of them; lsopen and appleevent-send in the operation lists dumped
   from the sandbox kext (the reverse-engineered reference) and in
   Apple's own application.sb.  */
static const char *const sbpl_operations[] = {
  "default",
  "file-read*",
  "file-write*",
  "file-read-metadata",
  "file-write-setugid",
  "file-write-mode",
  "file-write-unlink",
  "file-ioctl",
  "network*",
  "network-outbound",
  "network-inbound",
  "network-bind",
  "mach-lookup",
  "lsopen",
  "appleevent-send",
  NULL,
};

static bool sbpl_check_filter (struct sx_reader *rd, const struct sx *f);

static bool
sbpl_check_path_filter (struct sx_reader *rd, const struct sx *f)
{
  if (f->n != 2 || f->kids[1]->kind != SX_STRING)
    return sx_error (rd, "(%s) takes one string", f->kids[0]->text), false;
  if (f->kids[1]->text[0] != '/')
    return sx_error (rd, "(%s \"%s\") is not absolute", f->kids[0]->text,
                     f->kids[1]->text),
           false;
  return true;
}

/* (remote ip "localhost:*"), (local ip ...), (remote unix-socket FILTER?) */
static bool
sbpl_check_address (struct sx_reader *rd, const struct sx *f)
{
  if (f->n < 2 || f->kids[1]->kind != SX_SYMBOL)
    return sx_error (rd, "(%s) needs ip or unix-socket", f->kids[0]->text),
           false;
  if (sx_is (f->kids[1], SX_SYMBOL, "ip"))
    {
      if (f->n != 3 || f->kids[2]->kind != SX_STRING
          || (strncmp (f->kids[2]->text, "localhost:", 10) != 0
              && strncmp (f->kids[2]->text, "*:", 2) != 0))
        return sx_error (rd, "ip takes \"localhost:PORT\" or \"*:PORT\""),
               false;
      return true;
    }
  if (sx_is (f->kids[1], SX_SYMBOL, "unix-socket"))
    {
      if (f->n == 2)
        return true;
      if (f->n == 3 && f->kids[2]->kind == SX_LIST && f->kids[2]->n > 0
          && sx_is (f->kids[2]->kids[0], SX_SYMBOL, "path-literal"))
        return sbpl_check_path_filter (rd, f->kids[2]);
      return sx_error (rd, "unix-socket takes one path-literal"), false;
    }
  return sx_error (rd, "unknown address type %s", f->kids[1]->text), false;
}

static bool
sbpl_check_filter (struct sx_reader *rd, const struct sx *f)
{
  if (f->kind != SX_LIST || f->n == 0 || f->kids[0]->kind != SX_SYMBOL)
    return sx_error (rd, "a filter must be a list headed by a name"), false;
  const char *name = f->kids[0]->text;
  if (!strcmp (name, "subpath") || !strcmp (name, "literal"))
    return sbpl_check_path_filter (rd, f);
  /* (regex #"^...") as Homebrew and Codex write it for /dev/tty*.  */
  if (!strcmp (name, "regex"))
    {
      if (f->n != 2 || f->kids[1]->kind != SX_REGEX
          || f->kids[1]->text[0] != '^')
        return sx_error (rd, "(regex) takes one #\"^...\" literal"), false;
      return true;
    }
  if (!strcmp (name, "global-name"))
    {
      if (f->n != 2 || f->kids[1]->kind != SX_STRING)
        return sx_error (rd, "(global-name) takes one string"), false;
      return true;
    }
  if (!strcmp (name, "remote") || !strcmp (name, "local"))
    return sbpl_check_address (rd, f);
  if (!strcmp (name, "require-all") || !strcmp (name, "require-any")
      || !strcmp (name, "require-not"))
    {
      if (f->n < 2 || (!strcmp (name, "require-not") && f->n != 2))
        return sx_error (rd, "(%s) has the wrong number of filters", name),
               false;
      /* A require-all or require-any of one filter is that filter; no
         profile that runs on Macs writes one, so none is risked.  */
      if (strcmp (name, "require-not") != 0 && f->n == 2)
        return sx_error (rd, "(%s) of one filter: write the filter", name),
               false;
      for (size_t i = 1; i < f->n; i++)
        if (!sbpl_check_filter (rd, f->kids[i]))
          return false;
      return true;
    }
  return sx_error (rd, "unknown filter %s", name), false;
}

/* (allow|deny OPERATION... FILTER...) */
static bool
sbpl_check_rule (struct sx_reader *rd, const struct sx *r)
{
  size_t i = 1;
  for (; i < r->n && r->kids[i]->kind == SX_SYMBOL; i++)
    if (!sx_in (r->kids[i]->text, sbpl_operations))
      return sx_error (rd, "unknown operation %s", r->kids[i]->text), false;
  if (i == 1)
    return sx_error (rd, "(%s) names no operation", r->kids[0]->text), false;
  for (; i < r->n; i++)
    if (!sbpl_check_filter (rd, r->kids[i]))
      return false;
  return true;
}

/* Whether PROFILE is a well-formed profile of known names; RD->why says
   what is wrong when it is not.  */
static bool
sbpl_check (struct sx_reader *rd, const char *profile)
{
  struct sx *all = sx_read_all (rd, profile);
  if (all == NULL)
    return false;
  bool ok = true;
  if (all->n == 0 || all->kids[0]->kind != SX_LIST || all->kids[0]->n != 2
      || !sx_is (all->kids[0]->kids[0], SX_SYMBOL, "version")
      || !sx_is (all->kids[0]->kids[1], SX_SYMBOL, "1"))
    {
      sx_error (rd, "the first form is not (version 1)");
      ok = false;
    }
  for (size_t i = 1; ok && i < all->n; i++)
    {
      const struct sx *r = all->kids[i];
      if (r->kind != SX_LIST || r->n == 0
          || (!sx_is (r->kids[0], SX_SYMBOL, "allow")
              && !sx_is (r->kids[0], SX_SYMBOL, "deny")))
        {
          sx_error (rd, "top-level form %zu is not allow or deny", i);
          ok = false;
        }
      else
        ok = sbpl_check_rule (rd, r);
    }
  sx_free (all);
  return ok;
}

#endif
