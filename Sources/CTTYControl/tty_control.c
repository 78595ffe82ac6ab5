/* CTTYControl: termios2/BOTHER baud rates and DTR/RTS, straight from the Linux ioctls.
   Uses the kernel's own struct termios2 (asm/termbits.h), so glibc's termios.h is not included. */
#include "tty_control.h"

#include <asm/ioctls.h>
#include <asm/termbits.h>
#include <errno.h>
#include <sys/ioctl.h>

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
