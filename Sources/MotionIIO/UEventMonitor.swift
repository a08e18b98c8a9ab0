#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Write end of the notification pipe the `SIGIO` handler writes to (-1 when none).
private let uEventNotifyWriteFD = Atomic<Int32>(-1)

/// A netlink socket receiving the kernel's device events (`NETLINK_KOBJECT_UEVENT`, multicast
/// group 1, no privilege needed). The capture watches it beside the buffers so that a removed
/// device ends the wait at once: `poll` on a buffer of an unregistered IIO device reports
/// nothing (the 6.1 kernel's `iio_buffer_poll` returns 0), and the alternative, a poll timeout,
/// re-arms a kernel timer on every sample wake-up. Owns the descriptors; closes them in deinit.
///
/// With ``enableNotification()`` the socket itself is not polled: it raises `SIGIO` when an
/// event arrives (`O_ASYNC`), and the handler writes a byte to a pipe that is polled instead.
/// This mirrors libiio, whose second polled fd is an eventfd. Measured (test 55, buffer waiting
/// at watermark 100): without the netlink socket in the poll set three runs gave 0.93-1.24x
/// `iio_readdev`'s CPU per sample, two gave ~2.5x, as runs with it did (1.3-2.9x): suggestive,
/// not a proven saving (docs/iio-reader.md, "Speed").
final class UEventMonitor {
    /// The socket, or -1 when it could not be opened (the capture then falls back to a timeout).
    let fd: Int32
    /// Read end of the notification pipe (readable after `SIGIO`), or -1 when not enabled.
    private(set) var notifyFD: Int32 = -1
    private var notifyWriteFD: Int32 = -1

    /// The descriptor to poll: the notification pipe when enabled, else the socket (-1: none).
    var pollFD: Int32 { notifyFD >= 0 ? notifyFD : fd }

    /// Opens and binds the socket (non-blocking).
    init() {
        let netlinkKobjectUEvent: Int32 = 15
        let s = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), netlinkKobjectUEvent)
        guard s >= 0 else { fd = -1; return }
        // struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid; __u32 nl_groups; }
        var addr = [UInt8](repeating: 0, count: 12)
        withUnsafeBytes(of: UInt16(AF_NETLINK)) { addr.replaceSubrange(0..<2, with: $0) }
        withUnsafeBytes(of: UInt32(1)) { addr.replaceSubrange(8..<12, with: $0) }
        let r = addr.withUnsafeBytes { raw in
            bind(s, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if r != 0 { close(s); fd = -1; return }
        fd = s
    }

    deinit {
        disableNotification()
        if fd >= 0 { close(fd) }
    }

    /// Signal-driven notification (wraps `pipe`, `sigaction(SIGIO)`, `fcntl(F_SETOWN)` and
    /// `fcntl(F_SETFL, O_ASYNC)`): afterwards poll ``pollFD``. One monitor per process at a time.
    /// - Returns: false when it could not be set up (then poll the socket itself).
    @discardableResult
    func enableNotification() -> Bool {
        guard fd >= 0, notifyFD < 0 else { return notifyFD >= 0 }
        var p: [Int32] = [-1, -1]
        guard pipe(&p) == 0 else { return false }
        for d in p {
            _ = fcntl(d, F_SETFL, fcntl(d, F_GETFL) | O_NONBLOCK)
            _ = fcntl(d, F_SETFD, FD_CLOEXEC)
        }
        uEventNotifyWriteFD.store(p[1], ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            let w = uEventNotifyWriteFD.load(ordering: .relaxed)
            if w >= 0 { var b: UInt8 = 1; _ = write(w, &b, 1) }
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        let oAsync: Int32 = 0o20000 // O_ASYNC
        guard sigaction(SIGIO, &action, nil) == 0, fcntl(fd, F_SETOWN, getpid()) == 0,
              fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | oAsync) == 0 else {
            uEventNotifyWriteFD.store(-1, ordering: .relaxed)
            close(p[0]); close(p[1])
            return false
        }
        notifyFD = p[0]
        notifyWriteFD = p[1]
        return true
    }

    /// Stops signal-driven notification and closes the pipe. Idempotent.
    func disableNotification() {
        guard notifyFD >= 0 else { return }
        let oAsync: Int32 = 0o20000
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~oAsync)
        uEventNotifyWriteFD.store(-1, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&action.sa_mask)
        sigaction(SIGIO, &action, nil)
        close(notifyFD); close(notifyWriteFD)
        notifyFD = -1; notifyWriteFD = -1
    }

    /// Reads every pending event (and empties the notification pipe); returns whether one
    /// concerned a device removal.
    func drain() -> Bool {
        guard fd >= 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 8192)
        if notifyFD >= 0 {
            while buffer.withUnsafeMutableBytes({ read(notifyFD, $0.baseAddress, $0.count) }) > 0 {}
        }
        var removed = false
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { break }
            if buffer.starts(with: Array("remove@".utf8)) { removed = true }
        }
        return removed
    }
}
