/* sbx-landlock: the helper bubblewrap execs in place of the command.  It
   applies a Landlock domain built from the plan's grants, then execs the
   real command (searching PATH as bwrap's execvp would).

     sbx-landlock -f FD -A ABI [-r PATH]... [-w PATH]... [-d PATH]...
                  [-c PORT]... [-m PATH]... -- COMMAND [ARG]...
     sbx-landlock -a FD

   -a FD    every argument above, NUL-separated, read from FD (a memfd),
            which is closed before anything else: bubblewrap was started
            with this helper as its command before sbx-oci had planned the
            sandbox (runtime/linux/bwrap/prestart.h)

   -f FD    the descriptor the helper was exec'd through (a sealed memfd,
            /proc/self/fd/FD): closed before the command runs
   -A ABI   the Landlock ABI sbx-oci reported; a lower one here is refused.
            0: no Landlock domain and no rule: the checks of -m and -M,
            then the exec (a host without Landlock, a container without
            the layer; runtime/linux/confine/landlock_rules.h)
   -r PATH  read and execute beneath PATH
   -w PATH  read, execute and write beneath PATH (make, remove, rename,
            refer, truncate; no device nodes)
   Each PATH is walked from "/" following no link (open_rule_path).
   -d PATH  a device node, or a directory of them: read, write, ioctl
   -c PORT  TCP connect to PORT (ABI 4): with any -c, connecting to
            every other port is refused (the host ports' belt)
   -m PATH  refuse to run the command (exit 125) unless PATH, walked from
            "/" following no link, is the root of a mount: a mount the
            plan made below a directory someone else may write, which a
            link swapped in while bubblewrap set up would have sent
            elsewhere (bubblewrap follows links in a destination), leaving
            the place it was to narrow as it was (tests/integration/
            dest_swap.sh).  Checked before anything else, with -A 0 too.
   -M PATH  the same, and the mount is read-only: bubblewrap finds a bind
            again by its path to make it read-only, and a link swapped in
            between leaves it writable
   -u KIND  leave KIND ("signal" or "abstract") unscoped (ABI 6): a
            namespace holds it already, and each exec'd process has a
            domain of its own, which scoping would wall off from the
            sandbox's other processes

   Why the ruleset is built here, from paths, and not by sbx-oci outside
   and passed in as a descriptor: Landlock rules name inodes, and several
   of the plan's writable places exist only inside the sandbox, made by
   bubblewrap itself after sbx-oci let go (the private /tmp and every other
   tmpfs, /dev/shm, /dev/pts, the mqueue).  Built here, the paths resolve in
   the finished mount table, before any of the sandbox's processes run (the
   helper is the first), so nothing inside can have moved them.  The list
   comes from the plan's grants, never from the mount table: a writable
   mount the plan did not grant (a bug of the mount layer) gets no rule,
   which is what makes this layer independent (tests/integration/
   landlock.sh).  Landlock rules only add: a path hidden or read-only
   inside a granted root is held by the mount layer alone.

   No libc on x86_64 and aarch64 (landlock_sys.h): exit status 125 is the
   helper's own failure, 126/127 the command's exec failure.  */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <asm/statfs.h>
#include <linux/stat.h>

#include "runtime/linux/confine/landlock_abi.h"
#include "runtime/linux/confine/landlock_helper_args.h"
#include "runtime/linux/confine/landlock_sys.h"

#define O_PATH_ 010000000
#define O_CLOEXEC_ 02000000
#define AT_FDCWD_ (-100)
#define AT_EMPTY_PATH_ 0x1000
#define PR_SET_NO_NEW_PRIVS_ 38
#define PROT_READ_ 1
#define PROT_WRITE_ 2
#define MAP_PRIVATE_ 0x02
#define MAP_ANONYMOUS_ 0x20
#define EXIT_HELPER 125

#ifdef SBX_HELPER_NOLIBC
/* What the compiler may call on its own, without a libc to provide it.  */
void *memset (void *s, int c, size_t n);
void *
memset (void *s, int c, size_t n)
{
  unsigned char *p = s;
  while (n--)
    *p++ = (unsigned char) c;
  return s;
}
void *memcpy (void *d, const void *s, size_t n);
void *
memcpy (void *d, const void *s, size_t n)
{
  unsigned char *a = d;
  const unsigned char *b = s;
  while (n--)
    *a++ = *b++;
  return d;
}
#else
#include <string.h>
#endif

static size_t
str_len (const char *s)
{
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

static int
str_eq (const char *a, const char *b)
{
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}

/* stderr a line at a time, one write(2) a line: a caller that reads the
   command's stdout and stderr from two pipes (podman's conmon) put the
   command's first line inside one of these, between its pieces.  */
static char line[512];
static size_t line_len;

static void
put (const char *s)
{
  for (; *s; s++)
    {
      line[line_len++] = *s;
      if (*s == '\n' || line_len == sizeof line)
        {
          sbx_sys6 (SBX_NR_WRITE, 2, (long) line, (long) line_len, 0, 0, 0);
          line_len = 0;
        }
    }
}

/* PATH on stderr with its control characters as \xHH, as sbx-oci's own
   messages have them (common/error.c): a name in a workspace may hold a
   newline or a terminal escape, and this reaches the caller's terminal.
   Every byte past ASCII is escaped too: a C1 control or invalid UTF-8
   is as bad, and this rare line need not show a name's accents.  */
static void
put_path (const char *path)
{
  static const char hex[] = "0123456789abcdef";
  char buf[256];
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *) path; *p; p++)
    {
      if (n + 5 > sizeof buf)
        {
          buf[n] = '\0';
          put (buf);
          n = 0;
        }
      if (*p >= 0x20 && *p < 0x7f)
        buf[n++] = (char) *p;
      else
        {
          buf[n++] = '\\';
          buf[n++] = 'x';
          buf[n++] = hex[*p >> 4];
          buf[n++] = hex[*p & 15];
        }
    }
  buf[n] = '\0';
  put (buf);
}

static const char *
errno_name (long e)
{
  switch (e)
    {
    case 1:
      return "Operation not permitted";
    case 2:
      return "No such file or directory";
    case 7:
      return "Argument list too long";
    case 8:
      return "Exec format error";
    case 9:
      return "Bad file descriptor";
    case 12:
      return "Cannot allocate memory";
    case 13:
      return "Permission denied";
    case 20:
      return "Not a directory";
    case 22:
      return "Invalid argument";
    case 38:
      return "Function not implemented";
    case 95:
      return "Operation not supported";
    default:
      return "error";
    }
}

static __attribute__ ((noreturn)) void
die (int status, const char *what, const char *path, long neg_errno)
{
  put ("sbx-landlock: ");
  put (what);
  if (path)
    {
      put (" ");
      put_path (path);
    }
  if (neg_errno)
    {
      put (": ");
      put (errno_name (-neg_errno));
    }
  put ("\n");
  sbx_sys6 (SBX_NR_EXIT_GROUP, status, 0, 0, 0, 0, 0);
  __builtin_unreachable ();
}

static long
parse_num (const char *s)
{
  long n = 0;
  if (s == NULL || *s == '\0')
    return -1;
  for (; *s; s++)
    if (*s < '0' || *s > '9' || n > 100000)
      return -1;
    else
      n = n * 10 + (*s - '0');
  return n;
}

/* The rights that apply to a file that is not a directory: a rule on one
   with any other is refused by the kernel (EINVAL).  */
#define FILE_RIGHTS                                                           \
  (SBX_LL_FS_EXECUTE | SBX_LL_FS_WRITE_FILE | SBX_LL_FS_READ_FILE             \
   | SBX_LL_FS_TRUNCATE | SBX_LL_FS_IOCTL_DEV)

enum
{
  SKIP = -4096,        /* the rule is left out: not there */
  UNREACHABLE = -4097, /* and so is this one, which is there, but a
                          directory on its way denies search */
};

static long
sys_close (long fd)
{
  return sbx_sys6 (SBX_NR_CLOSE, fd, 0, 0, 0, 0, 0);
}

/* The next component of *REST into NAME (at most SIZE - 1 bytes), and
   *REST past it and its slashes.  Its length; 0 at the end; -1 when too
   long.  */
static long
next_name (const char **rest, char *name, size_t size)
{
  const char *p = *rest;
  size_t n = 0;
  while (*p == '/')
    p++;
  while (p[n] && p[n] != '/')
    if (++n >= size)
      return -1;
  memcpy (name, p, n);
  name[n] = '\0';
  p += n;
  while (*p == '/')
    p++;
  *rest = p;
  return (long) n;
}

/* PATH held as an O_PATH descriptor, or -errno, SKIP or UNREACHABLE.  Walked a
   component at a time from "/", following no link: exec builds its
   domain from the same paths after the sandbox has run, when a link on
   the way may be one the sandbox planted (on a mount it may write, or on
   a read-only view of a directory it may also write elsewhere, or one a
   mount_setattr made read-only), so a rule a link interrupts is left
   out, as is one whose way is gone or unsearchable: only less for the
   sandbox, whose own places stay writable through the grant that let it
   change them.  The plan has no link on any rule's way (policy/landlock.c
   refuses one), so at the first exec nothing is left out.  ".." is in no
   plan's path.  Not openat2's RESOLVE_NO_SYMLINKS: the agent filter
   refuses openat2 (its mode sits where a filter cannot read it), and the
   helper runs under it.  The last component is not followed either: a
   rule on a link lands on the link itself, so a link beside a hidden
   path never grants its target.  */
static long
open_rule_path (const char *path)
{
  char name[256];
  const long flags = O_PATH_ | O_CLOEXEC_ | SBX_O_NOFOLLOW;
  const char *rest = path;
  long dir = sbx_sys6 (SBX_NR_OPENAT, AT_FDCWD_, (long) "/",
                       flags | SBX_O_DIRECTORY, 0, 0, 0);
  while (dir >= 0)
    {
      long n = next_name (&rest, name, sizeof name);
      if (n == 0) /* "/" itself */
        return dir;
      if (n == 1 && name[0] == '.' && *rest)
        continue;
      bool dotdot = n == 2 && name[0] == '.' && name[1] == '.';
      long fd = n < 0    ? -36
                : dotdot ? SKIP
                         : sbx_sys6 (SBX_NR_OPENAT, dir, (long) name,
                                     flags | (*rest ? SBX_O_DIRECTORY : 0), 0,
                                     0, 0);
      sys_close (dir);
      if (fd >= 0 && *rest == '\0')
        return fd;
      /* A link or a file on the way (ENOTDIR), a name gone (ENOENT: also
         an optional place); a directory that denies search (EACCES: the
         rung's root caller, its capabilities dropped, loses what it
         reached only through them).  */
      if (fd == -20 || fd == -2)
        return SKIP;
      if (fd == -13)
        return UNREACHABLE;
      dir = fd;
    }
  return dir;
}

/* -m PATH: a mount root, reached following no link, or the command does
   not run.  A mount that went elsewhere leaves PATH a link (still there),
   or a directory that is no mount root (swapped back since).  -M: and
   read-only (ST_RDONLY, 1, of the mount's flags).  */
static void
check_mount (const char *path, bool read_only)
{
  long fd = open_rule_path (path);
  struct statx st;
  struct statfs fs;
  long r = fd < 0 ? fd
                  : sbx_sys6 (SBX_NR_STATX, fd, (long) "", AT_EMPTY_PATH_,
                              STATX_TYPE, (long) &st, 0);
  if (r >= 0 && read_only)
    r = sbx_sys6 (SBX_NR_FSTATFS, fd, (long) &fs, 0, 0, 0, 0);
  if (fd >= 0)
    sys_close (fd);
  /* A kernel older than 5.8 does not say what a mount root is: there
     the check cannot be made, and is not.  */
  if (r >= 0 && !(st.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
    return;
  long why = r == UNREACHABLE ? -13 : r == SKIP ? 0 : r;
  if (r < 0 || !(st.stx_attributes & STATX_ATTR_MOUNT_ROOT)
      || (read_only && !(fs.f_flags & 1)))
    die (EXIT_HELPER,
         "a mount the plan made is not in place (a link swapped in while "
         "bubblewrap set up?); refusing to run",
         path, why);
}

/* Allow RIGHTS beneath PATH.  A path that is not there is skipped: the
   plan's optional places (/dev/tty, a -try bind) may be absent; so is
   one open_rule_path leaves out.  One it cannot reach is skipped too
   (access there stays denied, as it would without Landlock), but not
   unsaid: the caller granted it, and would otherwise see only the
   command's refused writes.  */
static void
add_rule (long ruleset, const char *path, uint64_t rights, uint64_t handled)
{
  long fd = open_rule_path (path);
  if (fd == UNREACHABLE)
    {
      put ("sbx-landlock: ");
      put_path (path);
      put (": cannot be reached (a directory on its way denies search): "
           "its rule is left out, and access there stays denied\n");
      return;
    }
  if (fd == SKIP)
    return;
  if (fd < 0)
    die (EXIT_HELPER, "cannot open", path, fd);
  struct sbx_ll_path_beneath_attr a = { rights & handled, (int32_t) fd };
  long r = sbx_sys6 (SBX_NR_LANDLOCK_ADD_RULE, ruleset,
                     SBX_LL_RULE_PATH_BENEATH, (long) &a, 0, 0, 0);
  if (r == -22) /* not a directory: only the rights a file has */
    {
      a.allowed_access &= FILE_RIGHTS;
      r = sbx_sys6 (SBX_NR_LANDLOCK_ADD_RULE, ruleset,
                    SBX_LL_RULE_PATH_BENEATH, (long) &a, 0, 0, 0);
    }
  if (r < 0)
    die (EXIT_HELPER, "cannot add a landlock rule for", path, r);
  sys_close (fd);
}

/* Connecting to PORT over TCP is allowed (ABI 4).  */
static void
add_port_rule (long ruleset, const char *port)
{
  long p = parse_num (port);
  if (p < 1 || p > 65535)
    die (EXIT_HELPER, "bad port", port, 0);
  struct sbx_ll_net_port_attr a = { SBX_LL_NET_CONNECT_TCP, (uint64_t) p };
  long r = sbx_sys6 (SBX_NR_LANDLOCK_ADD_RULE, ruleset, SBX_LL_RULE_NET_PORT,
                     (long) &a, 0, 0, 0);
  if (r < 0)
    die (EXIT_HELPER, "cannot add a landlock rule for port", port, r);
}

static const char *
env_path (char **envp)
{
  for (; envp && *envp; envp++)
    if ((*envp)[0] == 'P' && (*envp)[1] == 'A' && (*envp)[2] == 'T'
        && (*envp)[3] == 'H' && (*envp)[4] == '=')
      return *envp + 5;
  return "/usr/local/bin:/usr/bin:/bin";
}

/* execvp's search, without its shell fallback for files without a
   magic number (bwrap's execvp has it; a command here needs its #!).  */
static __attribute__ ((noreturn)) void
exec_command (char **argv, char **envp)
{
  const char *cmd = argv[0];
  long r = -2, seen_eacces = 0;
  for (const char *s = cmd; *s; s++)
    if (*s == '/')
      {
        r = sbx_sys6 (SBX_NR_EXECVE, (long) cmd, (long) argv, (long) envp, 0,
                      0, 0);
        die (r == -2 ? 127 : 126, "execvp", cmd, r);
      }
  size_t clen = str_len (cmd);
  for (const char *p = env_path (envp); clen < 2048;)
    {
      char buf[4096];
      size_t n = 0;
      while (p[n] && p[n] != ':' && n < sizeof buf - clen - 2)
        n++;
      memcpy (buf, n ? p : ".", n ? n : 1);
      size_t at = n ? n : 1;
      buf[at++] = '/';
      memcpy (buf + at, cmd, clen + 1);
      r = sbx_sys6 (SBX_NR_EXECVE, (long) buf, (long) argv, (long) envp, 0, 0,
                    0);
      if (r == -13)
        seen_eacces = 1;
      if (p[n] == '\0')
        break;
      p += n + 1;
    }
  if (seen_eacces)
    r = -13;
  die (r == -2 ? 127 : 126, "execvp", cmd, r);
}

struct opts
{
  long self_fd, min_abi;
  int first_rule, command; /* argv indices */
  int connect_rules;       /* some -c: TCP connect is handled */
  int rules;               /* -r, -w, -d and -c given */
  uint64_t unscoped;       /* -u: scopes left out */
};

static void
parse (int argc, char **argv, struct opts *o)
{
  o->self_fd = o->min_abi = -1;
  o->command = o->connect_rules = o->rules = 0;
  o->unscoped = 0;
  for (int i = 1; i < argc; i += 2)
    {
      if (str_eq (argv[i], "--"))
        {
          o->command = i + 1;
          break;
        }
      if (argv[i][0] != '-' || argv[i][1] == '\0' || argv[i][2] != '\0'
          || i + 1 >= argc)
        die (EXIT_HELPER, "bad argument", argv[i], 0);
      if (argv[i][1] == 'f')
        o->self_fd = parse_num (argv[i + 1]);
      else if (argv[i][1] == 'A')
        o->min_abi = parse_num (argv[i + 1]);
      else if (argv[i][1] == 'c')
        o->connect_rules = 1;
      else if (argv[i][1] == 'u' && str_eq (argv[i + 1], "signal"))
        o->unscoped |= SBX_LL_SCOPE_SIGNAL;
      else if (argv[i][1] == 'u' && str_eq (argv[i + 1], "abstract"))
        o->unscoped |= SBX_LL_SCOPE_ABSTRACT_UNIX_SOCKET;
      else if (argv[i][1] != 'r' && argv[i][1] != 'w' && argv[i][1] != 'd'
               && argv[i][1] != 'm' && argv[i][1] != 'M')
        die (EXIT_HELPER, "bad argument", argv[i], 0);
      o->rules += argv[i][1] == 'r' || argv[i][1] == 'w' || argv[i][1] == 'd'
                  || argv[i][1] == 'c';
    }
  /* Rules with no domain to hold them: a layer silently missing.  */
  if (o->min_abi == 0 && o->rules > 0)
    die (EXIT_HELPER, "rules given with -A 0 (no landlock domain)", NULL, 0);
  if (o->command == 0 || o->command >= argc || o->min_abi < 0)
    die (EXIT_HELPER,
         "usage: sbx-landlock -f FD -A ABI [-r|-w|-d PATH]... "
         "-- COMMAND [ARG]...",
         NULL, 0);
}

/* -a FD: the arguments, NUL-separated, in place of the command line's.
   The file is mapped, not read into storage of the helper's own image:
   a static buffer would be there on every exec and count against a
   config's small RLIMIT_DATA; a private read-only file mapping does not,
   and the pointers take a page or so.  */
static void *
map (long size, long prot, long flags, long fd, const char *what)
{
  long p = sbx_sys6 (SBX_NR_MMAP, 0, size, prot, flags, fd, 0);
  if (p < 0 && p > -4096)
    die (EXIT_HELPER, what, NULL, p);
  return (void *) p;
}

static int
load_args (long fd, char *argv0, char ***argv)
{
  struct statx st;
  long r = sbx_sys6 (SBX_NR_STATX, fd, (long) "", AT_EMPTY_PATH_, STATX_SIZE,
                     (long) &st, 0);
  if (r < 0)
    die (EXIT_HELPER, "cannot read the arguments", NULL, r);
  if (st.stx_size == 0 || st.stx_size > SBX_HELPER_ARGS_MAX_BYTES)
    die (EXIT_HELPER, "the arguments are empty or too long", NULL, 0);
  long len = (long) st.stx_size;
  const char *bytes
      = map (len, PROT_READ_, MAP_PRIVATE_, fd, "cannot map the arguments");
  sbx_sys6 (SBX_NR_CLOSE, fd, 0, 0, 0, 0, 0);
  if (bytes[len - 1] != '\0')
    die (EXIT_HELPER, "the arguments do not end with a NUL", NULL, 0);
  long argc = 1;
  for (long at = 0; at < len; at++)
    argc += bytes[at] == '\0';
  if (argc > SBX_HELPER_ARGS_MAX)
    die (EXIT_HELPER, "too many arguments", NULL, 0);
  char **v = map ((argc + 1) * (long) sizeof *v, PROT_READ_ | PROT_WRITE_,
                  MAP_PRIVATE_ | MAP_ANONYMOUS_, -1, "out of memory");
  v[0] = argv0;
  for (long at = 0, i = 1; at < len; at += (long) str_len (bytes + at) + 1)
    v[i++] = (char *) bytes + at;
  v[argc] = NULL;
  *argv = v;
  return (int) argc;
}

static int
helper_main (int argc, char **argv, char **envp)
{
  struct opts o;
  if (argc == 3 && str_eq (argv[1], "-a"))
    argc = load_args (parse_num (argv[2]), argv[0], &argv);
  parse (argc, argv, &o);
  for (int i = 1; i < o.command - 1; i += 2)
    if (argv[i][1] == 'm' || argv[i][1] == 'M')
      check_mount (argv[i + 1], argv[i][1] == 'M');
  if (o.min_abi == 0)
    {
      if (o.self_fd > 2)
        sbx_sys6 (SBX_NR_CLOSE, o.self_fd, 0, 0, 0, 0, 0);
      exec_command (argv + o.command, envp);
    }
  long abi = sbx_sys6 (SBX_NR_LANDLOCK_CREATE_RULESET, 0, 0,
                       SBX_LL_CREATE_RULESET_VERSION, 0, 0, 0);
  if (abi < o.min_abi)
    die (EXIT_HELPER,
         abi < 0 ? "landlock is not available here"
                 : "the kernel offers a lower landlock ABI than was reported",
         NULL, abi < 0 ? abi : 0);
  if (abi > SBX_LL_ABI_KNOWN)
    abi = SBX_LL_ABI_KNOWN;
  struct sbx_ll_ruleset_attr attr = {
    sbx_ll_fs_handled ((int) abi),
    o.connect_rules && abi >= 4 ? SBX_LL_NET_CONNECT_TCP : 0,
    sbx_ll_scoped ((int) abi) & ~o.unscoped,
  };
  /* The size of the fields the ABI knows: an ABI < 6 refuses a larger
     struct whose extra field is set, and ignores nothing.  */
  long size = abi >= 6 ? (long) sizeof attr : (long) (2 * sizeof (uint64_t));
  long rs = sbx_sys6 (SBX_NR_LANDLOCK_CREATE_RULESET, (long) &attr, size, 0, 0,
                      0, 0);
  if (rs < 0)
    die (EXIT_HELPER, "cannot create a landlock ruleset", NULL, rs);
  for (int i = 1; i < o.command - 1; i += 2)
    {
      char k = argv[i][1];
      uint64_t rights = k == 'r'   ? SBX_LL_READ
                        : k == 'w' ? SBX_LL_WRITE
                        : k == 'd' ? SBX_LL_DEVICE
                                   : 0;
      if (rights)
        add_rule (rs, argv[i + 1], rights, attr.handled_access_fs);
      else if (k == 'c' && attr.handled_access_net)
        add_port_rule (rs, argv[i + 1]);
    }
  /* bubblewrap has set it already; sbx-oci's rung without namespaces
     relies on it here.  */
  long r = sbx_sys6 (SBX_NR_PRCTL, PR_SET_NO_NEW_PRIVS_, 1, 0, 0, 0, 0);
  if (r == 0)
    r = sbx_sys6 (SBX_NR_LANDLOCK_RESTRICT_SELF, rs, 0, 0, 0, 0, 0);
  if (r < 0)
    die (EXIT_HELPER, "cannot apply the landlock domain", NULL, r);
  sbx_sys6 (SBX_NR_CLOSE, rs, 0, 0, 0, 0, 0);
  if (o.self_fd > 2)
    sbx_sys6 (SBX_NR_CLOSE, o.self_fd, 0, 0, 0, 0, 0);
  exec_command (argv + o.command, envp);
}

#ifdef SBX_HELPER_NOLIBC
/* The kernel's initial stack: argc, argv..., NULL, envp..., NULL.  */
__attribute__ ((used)) static void
helper_start (long *sp)
{
  int argc = (int) sp[0];
  char **argv = (char **) (sp + 1);
  char **envp = argv + argc + 1;
  helper_main (argc, argv, envp);
}

#if defined(__x86_64__)
__asm__(".text\n.global _start\n_start:\n"
        "  xor %rbp, %rbp\n  mov %rsp, %rdi\n  and $-16, %rsp\n"
        "  call helper_start\n  hlt\n");
#elif defined(__aarch64__)
__asm__(".text\n.global _start\n_start:\n"
        "  mov x29, #0\n  mov x30, #0\n  mov x0, sp\n"
        "  bl helper_start\n  brk #0\n");
#endif
#else
int
main (int argc, char **argv, char **envp)
{
  return helper_main (argc, argv, envp);
}
#endif
