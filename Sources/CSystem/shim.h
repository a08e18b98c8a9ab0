// CSystem: Linux system headers that Swift's Glibc module does not export (timerfd, netlink, pipe2).
// Only MotionSystem imports this module.
#ifndef MOTIONBATCH_CSYSTEM_SHIM_H
#define MOTIONBATCH_CSYSTEM_SHIM_H
#include <sys/timerfd.h>
#include <linux/netlink.h>
#include <fcntl.h>
#include <unistd.h>

/// pipe2(2) (a GNU extension the Glibc module hides).
static inline int csystem_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }
#endif
