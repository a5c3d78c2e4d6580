/* Numbers.  yajl keeps every number's literal text (u.number.r); its own
   integer conversion stops at LLONG_MAX, and uint64 fields such as rlimits
   go up to 18446744073709551615, so integers are read from the literal
   here, exactly, with one vocabulary for every field.  */
#include "spec/parse_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

enum literal
{
  LITERAL_INTEGER,
  LITERAL_NOT_INTEGER, /* "1.5", "1e3", not a number at all */
  LITERAL_TOO_BIG,     /* magnitude beyond UINT64_MAX */
};

static enum literal
parse_integer_literal (yajl_val v, bool *negative, uint64_t *magnitude)
{
  if (!YAJL_IS_NUMBER (v))
    return LITERAL_NOT_INTEGER;
  const char *s = v->u.number.r;
  *negative = *s == '-';
  if (*negative)
    s++;
  if (*s < '0' || *s > '9')
    return LITERAL_NOT_INTEGER;
  uint64_t m = 0;
  bool too_big = false;
  for (; *s >= '0' && *s <= '9'; s++)
    {
      unsigned digit = (unsigned) (*s - '0');
      if (m > (UINT64_MAX - digit) / 10)
        too_big = true;
      else
        m = m * 10 + digit;
    }
  if (*s != '\0')
    return LITERAL_NOT_INTEGER;
  *magnitude = m;
  return too_big ? LITERAL_TOO_BIG : LITERAL_INTEGER;
}

int
jv_u64 (struct sbx_jctx *c, yajl_val v, uint64_t min, uint64_t max,
        uint64_t *out)
{
  bool negative = false;
  uint64_t m = 0;
  enum literal kind = parse_integer_literal (v, &negative, &m);
  if (kind == LITERAL_NOT_INTEGER
      || (negative && (m != 0 || kind == LITERAL_TOO_BIG)))
    return jfail (c, "expected an unsigned integer");
  if (kind == LITERAL_TOO_BIG || m < min || m > max)
    return jfail (c, "out of range (expected %" PRIu64 " to %" PRIu64 ")", min,
                  max);
  *out = m;
  return 0;
}

int
jv_i64 (struct sbx_jctx *c, yajl_val v, int64_t min, int64_t max, int64_t *out)
{
  bool negative = false;
  uint64_t m = 0;
  enum literal kind = parse_integer_literal (v, &negative, &m);
  if (kind == LITERAL_NOT_INTEGER)
    return jfail (c, "expected an integer");
  int64_t value = 0;
  bool fits = kind == LITERAL_INTEGER
              && m <= (negative ? (uint64_t) INT64_MAX + 1 : INT64_MAX);
  if (fits)
    value = negative && m > 0 ? -(int64_t) (m - 1) - 1 : (int64_t) m;
  if (!fits || value < min || value > max)
    return jfail (c, "out of range (expected %" PRId64 " to %" PRId64 ")", min,
                  max);
  *out = value;
  return 0;
}

int
json_u64_range (struct sbx_jctx *c, yajl_val obj, const char *key,
                unsigned flags, uint64_t min, uint64_t max, uint64_t *out)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, key, flags, &v, &mark);
  if (r <= 0)
    return r;
  r = jv_u64 (c, v, min, max, out);
  jpath_pop (c, mark);
  return r < 0 ? r : 1;
}

int
json_u64 (struct sbx_jctx *c, yajl_val obj, const char *key, unsigned flags,
          uint64_t *out)
{
  return json_u64_range (c, obj, key, flags, 0, UINT64_MAX, out);
}

int
json_u32 (struct sbx_jctx *c, yajl_val obj, const char *key, unsigned flags,
          uint32_t min, uint32_t max, uint32_t *out)
{
  uint64_t wide = 0;
  int r = json_u64_range (c, obj, key, flags, min, max, &wide);
  if (r > 0)
    *out = (uint32_t) wide;
  return r;
}

int
json_i64 (struct sbx_jctx *c, yajl_val obj, const char *key, unsigned flags,
          int64_t min, int64_t max, int64_t *out)
{
  yajl_val v;
  size_t mark;
  int r = json_field (c, obj, key, flags, &v, &mark);
  if (r <= 0)
    return r;
  r = jv_i64 (c, v, min, max, out);
  jpath_pop (c, mark);
  return r < 0 ? r : 1;
}

/* The digits of a decimal literal "-?INT(.FRAC)?([eE][+-]?EXP)?" and the
   power of ten of the first digit's position: value = 0.DIGITS * 10^point.  */
struct decimal
{
  const char *int_part, *frac_part;
  size_t n_int, n_frac;
  long long point;
};

static void
split_decimal (const char *s, struct decimal *d)
{
  d->int_part = s;
  for (d->n_int = 0; s[d->n_int] >= '0' && s[d->n_int] <= '9'; d->n_int++)
    ;
  s += d->n_int;
  d->frac_part = s + (*s == '.');
  d->n_frac = 0;
  if (*s == '.')
    for (s++; s[d->n_frac] >= '0' && s[d->n_frac] <= '9'; d->n_frac++)
      ;
  s += d->n_frac;
  long long exp = 0;
  bool exp_negative = false;
  if (*s == 'e' || *s == 'E')
    {
      s++;
      exp_negative = *s == '-';
      s += *s == '-' || *s == '+';
      /* Clamped: 1e999999 is out of range and 1e-999999 rounds up to 1 ms
         either way.  */
      for (; *s >= '0' && *s <= '9'; s++)
        if (exp < 1000000)
          exp = exp * 10 + (*s - '0');
    }
  d->point = (long long) d->n_int + (exp_negative ? -exp : exp);
}

static char
decimal_digit (const struct decimal *d, size_t i)
{
  return i < d->n_int ? d->int_part[i] : d->frac_part[i - d->n_int];
}

int
jv_seconds_to_ms (struct sbx_jctx *c, yajl_val v, uint64_t max_seconds,
                  uint64_t *ms)
{
  if (!YAJL_IS_NUMBER (v) || v->u.number.r[0] == '-')
    return jfail (c, "expected a number greater than 0");
  struct decimal d;
  split_decimal (v->u.number.r, &d);
  /* Digits before the millisecond point make the whole part; any non-zero
     digit after it rounds up, so a limit is never shortened.  */
  long long whole = d.point + 3;
  size_t n = d.n_int + d.n_frac;
  uint64_t m = 0;
  bool round_up = false, too_big = false;
  for (size_t i = 0; i < n; i++)
    {
      unsigned digit = (unsigned) (decimal_digit (&d, i) - '0');
      if ((long long) i >= whole)
        round_up |= digit != 0;
      else if (m > (UINT64_MAX - digit) / 10)
        too_big = true;
      else
        m = m * 10 + digit;
    }
  for (long long i = (long long) n; i < whole && m != 0 && !too_big; i++)
    if (m > UINT64_MAX / 10)
      too_big = true;
    else
      m *= 10;
  if (round_up && m == UINT64_MAX)
    too_big = true;
  m += round_up;
  if (m == 0 && !too_big)
    return jfail (c, "expected a number greater than 0");
  if (too_big || m > max_seconds * 1000)
    return jfail (c, "out of range (expected at most %" PRIu64 " seconds)",
                  max_seconds);
  *ms = m;
  return 0;
}
