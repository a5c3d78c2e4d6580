/* Stand-ins for getpwuid and initgroups in the static sbx-oci, linked
   with -Wl,--wrap (meson.build).  libcap-ng is one object file, and
   capng_change_id, which sbx-oci never calls, references both; linked
   statically, glibc's would bring its NSS code with them, and a warning
   that it loads NSS modules at run time.  These fail instead, so the
   binary holds no NSS code and the link stays quiet.  */
#include <errno.h>
#include <pwd.h>
#include <stddef.h>
#include <sys/types.h>

struct passwd *__wrap_getpwuid (uid_t uid);
int __wrap_initgroups (const char *user, gid_t group);

struct passwd *
__wrap_getpwuid (uid_t uid)
{
  (void) uid;
  errno = ENOSYS;
  return NULL;
}

int
__wrap_initgroups (const char *user, gid_t group)
{
  (void) user;
  (void) group;
  errno = ENOSYS;
  return -1;
}
