// SPDX-License-Identifier: Apache-2.0
/* Test-only LD_PRELOAD shim that lets libserialport open a pseudo-terminal, so the loopback and
   playback tests run through the same libserialport code that drives real USB adapters.

   libserialport refuses ptys in two places (platform-facts.md):
   - sp_get_port_by_name looks the port up as /sys/class/tty/<name>, a symlink into the device tree;
     ptys have no entry. Here lstat/readlink of /sys/class/tty/pts/N answer with a symlink whose target
     names neither "usb" nor "bluetooth", so libserialport treats the port as a native UART.
   - sp_open reads the modem lines (TIOCMGET) and sp_set_dtr/rts set them (TIOCMBIS/TIOCMBIC); a pty
     has none and says ENOTTY. Here those calls succeed on a per-process copy of the lines.
   Every other call goes to the real function untouched. Modem-line changes are appended to the file
   named by MOTORBREATH_SHIM_LOG ("DTR 0", "RTS 1", ...), so a test can check what the host did.

   Build: cc -shared -fPIC -o shim.so libserialport_pty_shim.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static const char pts_prefix[] = "/sys/class/tty/pts/";
static const char fake_target[] = "../../devices/virtual/motorbreath-test-pty";
static int modem_lines = TIOCM_DTR | TIOCM_RTS;

static int is_pts_entry(const char *path) {
    return path && strncmp(path, pts_prefix, sizeof pts_prefix - 1) == 0;
}

static void fake_link_stat(struct stat *st) {
    memset(st, 0, sizeof *st);
    st->st_mode = S_IFLNK | 0777;
}

static void log_line(const char *line, int on) {
    const char *path = getenv("MOTORBREATH_SHIM_LOG");
    if (!path) return;
    FILE *f = fopen(path, "a");
    if (!f) return;
    fprintf(f, "%s %d\n", line, on);
    fclose(f);
}

static void set_lines(int bits, int on) {
    if (bits & TIOCM_DTR) log_line("DTR", on);
    if (bits & TIOCM_RTS) log_line("RTS", on);
    modem_lines = on ? (modem_lines | bits) : (modem_lines & ~bits);
}

int lstat(const char *path, struct stat *st) {
    static int (*real)(const char *, struct stat *);
    if (is_pts_entry(path)) { fake_link_stat(st); return 0; }
    if (!real) real = (int (*)(const char *, struct stat *))dlsym(RTLD_NEXT, "lstat");
    return real(path, st);
}

/* glibc before 2.33 exported lstat as __lxstat; Debian's libserialport binary still calls it. */
int __lxstat(int ver, const char *path, struct stat *st) {
    static int (*real)(int, const char *, struct stat *);
    if (is_pts_entry(path)) { fake_link_stat(st); return 0; }
    if (!real) real = (int (*)(int, const char *, struct stat *))dlsym(RTLD_NEXT, "__lxstat");
    return real(ver, path, st);
}

ssize_t readlink(const char *path, char *buf, size_t size) {
    static ssize_t (*real)(const char *, char *, size_t);
    if (is_pts_entry(path)) {
        size_t n = strlen(fake_target);
        if (n > size) n = size;
        memcpy(buf, fake_target, n);
        return (ssize_t)n;
    }
    if (!real) real = (ssize_t (*)(const char *, char *, size_t))dlsym(RTLD_NEXT, "readlink");
    return real(path, buf, size);
}

int ioctl(int fd, unsigned long request, ...) {
    static int (*real)(int, unsigned long, ...);
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (!real) real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    int r = real(fd, request, arg);
    if (r == 0 || (errno != ENOTTY && errno != EINVAL)) return r;
    int *bits = (int *)arg;
    switch (request) {
    case TIOCMGET: *bits = modem_lines; return 0;
    case TIOCMBIS: set_lines(*bits, 1); return 0;
    case TIOCMBIC: set_lines(*bits, 0); return 0;
    case TIOCMSET:
        set_lines(*bits & (TIOCM_DTR | TIOCM_RTS), 1);
        set_lines(~*bits & (TIOCM_DTR | TIOCM_RTS), 0);
        return 0;
    default: return r;
    }
}
