// SPDX-License-Identifier: Apache-2.0
/* CPosixPty: POSIX pseudo-terminal calls that Glibc's Swift module hides behind feature macros.
   Declared here (they are in every glibc) rather than re-including stdlib.h with _GNU_SOURCE. */
#include <stddef.h>
int posix_openpt(int flags);
int grantpt(int fd);
int unlockpt(int fd);
int ptsname_r(int fd, char *buf, size_t buflen);
