// SPDX-License-Identifier: Apache-2.0
/* CTTYControl: termios2/BOTHER baud rates and DTR/RTS, straight from the Linux ioctls, and kcmp(2).
   Uses the kernel's own struct termios2 (asm/termbits.h), so glibc's termios.h is not included. */
#include "tty_control.h"

#include <asm/ioctls.h>
#include <asm/termbits.h>
#include <errno.h>
#include <linux/kcmp.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

int mb_tty_set_baud(int fd, unsigned int baud) {
    struct termios2 t;
    if (ioctl(fd, TCGETS2, &t) != 0) return -1;
    t.c_cflag &= ~(CBAUD | (CBAUD << IBSHIFT));
    t.c_cflag |= BOTHER | (BOTHER << IBSHIFT);
    t.c_ispeed = baud;
    t.c_ospeed = baud;
    return ioctl(fd, TCSETS2, &t);
}

unsigned int mb_tty_get_baud(int fd) {
    struct termios2 t;
    if (ioctl(fd, TCGETS2, &t) != 0) return 0;
    return t.c_ospeed;
}

static int set_line(int fd, int bit, int on) {
    return ioctl(fd, on ? TIOCMBIS : TIOCMBIC, &bit);
}

int mb_tty_set_dtr(int fd, int on) { return set_line(fd, TIOCM_DTR, on); }
int mb_tty_set_rts(int fd, int on) { return set_line(fd, TIOCM_RTS, on); }

int mb_tty_set_exclusive(int fd, int on) { return ioctl(fd, on ? TIOCEXCL : TIOCNXCL); }

int mb_same_open_file(int pid1, int fd1, int pid2, int fd2) {
    long r = syscall(SYS_kcmp, (pid_t)pid1, (pid_t)pid2, KCMP_FILE, (unsigned long)fd1, (unsigned long)fd2);
    if (r < 0) return -1;
    return r == 0 ? 1 : 0;
}
