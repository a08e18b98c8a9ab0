// CSystem: Linux system headers that Swift's Glibc module does not export (timerfd, netlink, pipe2,
// POSIX timers, gettid/tgkill).
// Only MotionSystem imports this module.
#ifndef MOTIONBATCH_CSYSTEM_SHIM_H
#define MOTIONBATCH_CSYSTEM_SHIM_H
#include <sys/timerfd.h>
#include <linux/netlink.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/timex.h>
#include <sys/file.h>
#include <signal.h>
#include <time.h>
#include <sys/syscall.h>

/// pipe2(2) (a GNU extension the Glibc module hides).
static inline int csystem_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

/// fcntl(F_SETPIPE_SZ) (a GNU extension the Glibc module hides): the pipe's new capacity, or -1.
static inline int csystem_set_pipe_size(int fd, int bytes) {
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031 /* F_LINUX_SPECIFIC_BASE + 7, <linux/fcntl.h> */
#endif
    return fcntl(fd, F_SETPIPE_SZ, bytes);
}

/// adjtimex(2) with no modes (a read, allowed unprivileged): the clock state (TIME_OK ... TIME_ERROR,
/// or -1 with errno) and the kernel's maximum and estimated error (µs) and status bits.
static inline int csystem_adjtimex_read(long *maxerror, long *esterror, int *status) {
    struct timex t = {0};
    t.modes = 0;
    int r = adjtimex(&t);
    *maxerror = t.maxerror;
    *esterror = t.esterror;
    *status = t.status;
    return r;
}

/// The STA_UNSYNC status bit and the TIME_ERROR state of adjtimex(2).
static inline int csystem_sta_unsync(void) { return STA_UNSYNC; }
static inline int csystem_time_error(void) { return TIME_ERROR; }

/// timer_create(2) on CLOCK_MONOTONIC delivering `signo` to the process (SIGEV_SIGNAL); the
/// timer in `*out` (glibc's timer_t, a pointer that holds the kernel's timer id, 0 for the
/// first: an integer here). 0, or -1 with errno.
static inline int csystem_timer_create_signal(int signo, long *out) {
    struct sigevent ev;
    timer_t t;
    __builtin_memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = signo;
    int r = timer_create(CLOCK_MONOTONIC, &ev, &t);
    if (r == 0) *out = (long)t;
    return r;
}

/// timer_settime(2): one expiry at monotonic time `ns` (TIMER_ABSTIME), or disarmed when `ns`
/// is 0. 0, or -1 with errno.
static inline int csystem_timer_set_absolute(long timer, long long ns) {
    struct itimerspec s;
    __builtin_memset(&s, 0, sizeof s);
    s.it_value.tv_sec = (time_t)(ns / 1000000000LL);
    s.it_value.tv_nsec = (long)(ns % 1000000000LL);
    return timer_settime((timer_t)timer, ns > 0 ? TIMER_ABSTIME : 0, &s, 0);
}

/// timer_delete(2).
static inline int csystem_timer_delete(long timer) { return timer_delete((timer_t)timer); }

/// gettid(2) (async-signal-safe).
static inline int csystem_gettid(void) { return (int)syscall(SYS_gettid); }

/// tgkill(2) to thread `tid` of this process (async-signal-safe).
static inline int csystem_tgkill(int tid, int sig) { return (int)syscall(SYS_tgkill, (int)getpid(), tid, sig); }
#endif
