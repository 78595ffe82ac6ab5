// SPDX-License-Identifier: Apache-2.0
/* CWatchdog: timerfd_create/timerfd_settime and eventfd behind four calls (see include/watchdog.h). */
#include "watchdog.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

int mb_watchdog_open(struct mb_watchdog *w) {
    w->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (w->timer_fd < 0) return -1;
    w->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (w->stop_fd < 0) {
        int e = errno;
        close(w->timer_fd);
        w->timer_fd = -1;
        errno = e;
        return -1;
    }
    return 0;
}

int mb_watchdog_arm(const struct mb_watchdog *w, unsigned long long ns) {
    if (ns == 0) ns = 1; /* an all-zero it_value would disarm the timer */
    struct itimerspec t = {0};
    t.it_value.tv_sec = (time_t)(ns / 1000000000ULL);
    t.it_value.tv_nsec = (long)(ns % 1000000000ULL);
    return timerfd_settime(w->timer_fd, 0, &t, NULL);
}

int mb_watchdog_wait(const struct mb_watchdog *w) {
    for (;;) {
        struct pollfd p[2] = {{w->stop_fd, POLLIN, 0}, {w->timer_fd, POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (p[0].revents) return 0;
        if (!p[1].revents) continue;
        uint64_t expiries;
        if (read(w->timer_fd, &expiries, sizeof expiries) == (ssize_t)sizeof expiries) return 1;
        /* EAGAIN: re-armed between the poll and the read (re-arming clears the expiry): sleep on. */
        if (errno != EAGAIN && errno != EINTR) return -1;
    }
}

int mb_watchdog_stop(const struct mb_watchdog *w) {
    uint64_t one = 1;
    return write(w->stop_fd, &one, sizeof one) == (ssize_t)sizeof one ? 0 : -1;
}

void mb_watchdog_close(struct mb_watchdog *w) {
    if (w->timer_fd >= 0) close(w->timer_fd);
    if (w->stop_fd >= 0) close(w->stop_fd);
    w->timer_fd = -1;
    w->stop_fd = -1;
}

int mb_thread_id(void) { return (int)syscall(SYS_gettid); }
