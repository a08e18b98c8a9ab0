#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSystem

/// A netlink socket receiving the kernel's device events (`NETLINK_KOBJECT_UEVENT`, multicast
/// group 1, no privilege needed), so that a removed (or re-added) device ends a wait at once
/// instead of a poll timeout finding it. Owns the socket; closes it in deinit.
///
/// With ``notifyThroughSignalPipe()`` the socket itself is not polled: it raises `SIGIO` when an
/// event arrives (`O_ASYNC`) and ``SignalPipe`` turns that into a byte on its pipe, which is
/// polled anyway. This keeps the socket's poll callback off a per-sample wake-up path (libiio
/// likewise polls only the buffer and an eventfd; docs/iio-reader.md, "Speed").
public final class UEventSocket {
    /// One kernel event: `remove@/devices/...` gives action `remove` and that path.
    public struct Event: Hashable, Sendable {
        /// `add`, `remove`, `change`, `bind`, ...
        public var action: String
        /// The sysfs path below /sys (`/devices/...`).
        public var devpath: String
    }

    /// The socket.
    public let fd: Int32
    private var asyncEnabled = false

    /// Opens and binds the socket (non-blocking).
    /// - Throws: ``SystemError`` (`socket`, `bind`).
    public init() throws(SystemError) {
        let netlinkKobjectUEvent: Int32 = 15
        let s = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), netlinkKobjectUEvent)
        guard s >= 0 else { throw SystemError.current("socket", subject: "NETLINK_KOBJECT_UEVENT") }
        var addr = sockaddr_nl()
        addr.nl_family = sa_family_t(AF_NETLINK)
        addr.nl_groups = 1
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard r == 0 else {
            let e = SystemError.current("bind", subject: "NETLINK_KOBJECT_UEVENT")
            close(s)
            throw e
        }
        fd = s
    }

    deinit {
        stopNotifying()
        close(fd)
    }

    /// Raises `SIGIO` on each event (`fcntl(F_SETOWN)`, `O_ASYNC`), delivered through ``SignalPipe``.
    public func notifyThroughSignalPipe() throws(SystemError) {
        guard !asyncEnabled else { return }
        try SignalPipe.install([SIGIO])
        guard fcntl(fd, F_SETOWN, getpid()) == 0 else { throw SystemError.current("fcntl(F_SETOWN)", subject: "uevent socket") }
        guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) == 0 else { throw SystemError.current("fcntl(O_ASYNC)", subject: "uevent socket") }
        asyncEnabled = true
    }

    /// Stops raising `SIGIO`. Idempotent.
    public func stopNotifying() {
        guard asyncEnabled else { return }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_ASYNC)
        asyncEnabled = false
    }

    /// Every pending event (non-blocking).
    public func receive() -> [Event] {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var out: [Event] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { break }
            // "ACTION@DEVPATH\0KEY=VALUE\0...": the header is enough.
            let header = buffer[0..<n].prefix { $0 != 0 }
            guard let at = header.firstIndex(of: UInt8(ascii: "@")) else { continue }
            out.append(Event(action: String(decoding: header[..<at], as: UTF8.self),
                             devpath: String(decoding: header[(at + 1)...], as: UTF8.self)))
        }
        return out
    }
}
