// SPDX-License-Identifier: Apache-2.0
/* CTTYControl: the tty ioctls Swift cannot call (ioctl is variadic): modem lines and any baud rate. */
#ifndef MOTORBREATH_TTY_CONTROL_H
#define MOTORBREATH_TTY_CONTROL_H

/* Sets the input and output speed of `fd` to `baud` exactly (termios2 with BOTHER), so rates such as
   250000 work. Returns 0, or -1 with errno set. */
int mb_tty_set_baud(int fd, unsigned int baud);

/* The output speed the driver holds for `fd` (termios2 c_ospeed), or 0 with errno set. */
unsigned int mb_tty_get_baud(int fd);

/* Raises (`on` != 0) or drops the DTR or RTS line. Returns 0, or -1 with errno set
   (ENOTTY/EINVAL on a pseudo-terminal, which has no modem lines). */
int mb_tty_set_dtr(int fd, int on);
int mb_tty_set_rts(int fd, int on);

/* Exclusive mode on (TIOCEXCL: further open() calls fail with EBUSY, except for root) or off (TIOCNXCL).
   Returns 0, or -1 with errno set. */
int mb_tty_set_exclusive(int fd, int on);

/* Whether descriptor `fd1` of process `pid1` and `fd2` of `pid2` are one open file description (kcmp(2)
   KCMP_FILE: a descriptor inherited across fork, not the same file opened twice). Returns 1 or 0, or -1
   with errno set (EPERM for a process this user may not inspect; ENOSYS without kcmp). */
int mb_same_open_file(int pid1, int fd1, int pid2, int fd2);

#endif
