// SPDX-License-Identifier: Apache-2.0
/* CWatchdog: a one-shot CLOCK_MONOTONIC timer (timerfd) and a stop signal (eventfd) one thread sleeps on,
   for the calls Swift's Glibc module does not expose. Linux only. */
#ifndef MOTORBREATH_WATCHDOG_H
#define MOTORBREATH_WATCHDOG_H

/* The two descriptors: the timer, and the stop signal. */
struct mb_watchdog {
    int timer_fd;
    int stop_fd;
};

/* Opens both descriptors (close-on-exec, non-blocking), the timer disarmed. Returns 0, or -1 with errno set
   (and nothing left open). */
int mb_watchdog_open(struct mb_watchdog *w);

/* Arms the timer to fire once, `ns` nanoseconds from now (0 counts as 1: it never disarms), replacing any
   earlier arming. One syscall, no lock: safe from any thread. Returns 0, or -1 with errno set. */
int mb_watchdog_arm(const struct mb_watchdog *w, unsigned long long ns);

/* Sleeps until the timer fires (returns 1, the expiry consumed) or stop is signalled (returns 0, and keeps
   returning 0). Returns -1 with errno set on an error. */
int mb_watchdog_wait(const struct mb_watchdog *w);

/* Signals stop: a thread in `mb_watchdog_wait` returns 0 at once. Safe from any thread. */
int mb_watchdog_stop(const struct mb_watchdog *w);

/* Closes both descriptors (after the waiting thread is gone). */
void mb_watchdog_close(struct mb_watchdog *w);

/* The calling thread's kernel id (gettid(2)): where /proc/self/task/<id> keeps its counters. */
int mb_thread_id(void);

#endif
