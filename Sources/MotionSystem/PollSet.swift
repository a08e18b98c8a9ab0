#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `poll(2)` reports for one descriptor.
public struct PollEvents: OptionSet, Hashable, Sendable {
    /// The raw `revents`/`events` bits.
    public var rawValue: Int16
    /// Creates a set from raw bits.
    public init(rawValue: Int16) { self.rawValue = rawValue }
    /// `POLLIN`: data to read.
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// `POLLERR`: an error condition.
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// `POLLHUP`: hung up.
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// `POLLNVAL`: not an open descriptor.
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// A set of descriptors to wait on with `poll(2)`: built once, waited on many times (the capture
/// waits once per sample at batch 1, so the set is not rebuilt per wait). The one place
/// `poll(2)` is called.
public struct PollSet: Sendable {
    @usableFromInline var fds: [pollfd] = []

    /// An empty set.
    public init() {}

    /// Adds `fd` (waiting for `events`); returns its index for ``returned(_:)``.
    @discardableResult
    public mutating func add(_ fd: Int32, events: PollEvents = .readable) -> Int {
        precondition(fd >= 0, "PollSet.add needs an open descriptor")
        fds.append(pollfd(fd: fd, events: events.rawValue, revents: 0))
        return fds.count - 1
    }

    /// Number of descriptors in the set.
    public var count: Int { fds.count }

    /// Waits until a descriptor is ready or `timeoutMilliseconds` passed (-1: no timeout; 0: do not
    /// block). A signal (`EINTR`) restarts the wait with the same timeout: signals that matter
    /// are delivered through a descriptor in the set (``SignalPipe``).
    /// - Returns: the number of ready descriptors (0 on timeout).
    /// - Throws: ``SystemError`` (`poll`) for other failures.
    public mutating func wait(timeoutMilliseconds: Int32 = -1) throws(SystemError) -> Int {
        for i in fds.indices { fds[i].revents = 0 }
        while true {
            let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
            if n >= 0 { return Int(n) }
            let e = Errno.current
            if e == .interrupted { continue }
            throw SystemError(e, call: "poll")
        }
    }

    /// What the last ``wait(timeoutMilliseconds:)`` reported for the descriptor at `index`.
    public func returned(_ index: Int) -> PollEvents { PollEvents(rawValue: fds[index].revents) }

    /// Waits (no timeout) again and again while each wait returns with only the descriptor at
    /// `index` readable, calling `body` after each such wake-up until it returns false; a wake-up
    /// with anything else in it ends the loop, its events left for ``returned(_:)``. The loop of a
    /// reader woken once per sample (`capture --batch 1`): one `poll(2)` per wake-up and no other
    /// call, on storage borrowed once.
    /// - Returns: the wake-ups that called `body`, and the number of ready descriptors of the
    ///   wake-up that ended the loop (nil when `body` ended it; 0 for a failed `poll` other than
    ///   `EINTR`, which restarts the wait).
    @inlinable
    public mutating func waitWhile(onlyReadable index: Int, _ body: () -> Bool) -> (wakeups: Int, ended: Int?) {
        precondition(fds.indices.contains(index), "PollSet.waitWhile: no descriptor at \(index)")
        return fds.withUnsafeMutableBufferPointer { p in
            let base = p.baseAddress!, count = nfds_t(p.count)
            var wakeups = 0
            while true {
                let n = poll(base, count, -1)
                if n == 1, base[index].revents == Int16(POLLIN) {
                    wakeups += 1
                    if body() { continue }
                    return (wakeups, nil)
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    return (wakeups, 0)
                }
                return (wakeups, Int(n))
            }
        }
    }
}
