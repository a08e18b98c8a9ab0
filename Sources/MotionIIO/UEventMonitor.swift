#if canImport(Glibc)
import Glibc
#endif

/// A netlink socket receiving the kernel's device events (`NETLINK_KOBJECT_UEVENT`, multicast
/// group 1, no privilege needed). The capture polls it beside the buffers so that a removed
/// device ends the wait at once: `poll` on a buffer of an unregistered IIO device reports
/// nothing (the 6.1 kernel's `iio_buffer_poll` returns 0), and the alternative, a poll timeout,
/// re-arms a kernel timer on every sample wake-up. Owns the descriptor; closes it in deinit.
final class UEventMonitor {
    /// The socket, or -1 when it could not be opened (the capture then falls back to a timeout).
    let fd: Int32

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

    deinit { if fd >= 0 { close(fd) } }

    /// Reads every pending event; returns whether one concerned a device removal.
    func drain() -> Bool {
        guard fd >= 0 else { return false }
        var removed = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { break }
            if buffer.starts(with: Array("remove@".utf8)) { removed = true }
        }
        return removed
    }
}
