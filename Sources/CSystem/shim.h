// CSystem: Linux system headers that Swift's Glibc module does not export (timerfd, netlink, pipe2).
// Only MotionSystem imports this module.
#ifndef MOTIONBATCH_CSYSTEM_SHIM_H
#define MOTIONBATCH_CSYSTEM_SHIM_H
#include <sys/timerfd.h>
#include <linux/netlink.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/timex.h>
#include <sys/file.h>

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
#endif
