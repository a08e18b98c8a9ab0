import CLibIIO
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// A capture buffer (`struct iio_buffer`): owns the handle and destroys it (`iio_buffer_destroy`,
/// which also disables the kernel buffer and closes `/dev/iio:deviceN`) in ``destroy()`` or deinit.
/// Keeps its device (and context) alive. One thread per buffer (no locking in libiio's local backend).
public final class IIOBuffer {
    /// The device captured.
    public let device: IIODevice
    private var handle: OpaquePointer?
    /// Scans per refill requested at creation (also the kernel watermark on the local backend).
    public let capacity: Int

    /// Enables the kernel buffer for the device's enabled channels (wraps `iio_device_create_buffer`,
    /// non-cyclic). On the local backend this writes `buffer/length`, `buffer/watermark`, opens the
    /// character device and writes `buffer/enable=1`.
    /// - Throws: ``SystemError`` (`EACCES` without permission, `EBUSY` when another reader has it).
    public init(device: IIODevice, capacity: Int) throws(SystemError) {
        errno = 0
        let raw = iio_device_create_buffer(device.handle, capacity, false)
        handle = try LibIIO.check(raw, "iio_device_create_buffer", subject: device.id)
        self.device = device
        self.capacity = capacity
    }

    deinit { destroy() }

    /// Disables the kernel buffer and frees it (wraps `iio_buffer_destroy`). Idempotent.
    public func destroy() {
        if let h = handle { iio_buffer_destroy(h) }
        handle = nil
    }

    /// Whether the buffer has been destroyed.
    public var isDestroyed: Bool { handle == nil }

    private func live(_ call: String) throws(SystemError) -> OpaquePointer {
        guard let h = handle else { throw SystemError(.badFileDescriptor, call: call, subject: device.id, message: "buffer already destroyed") }
        return h
    }

    /// Switches blocking/non-blocking refills (wraps `iio_buffer_set_blocking_mode`).
    public func setBlocking(_ blocking: Bool) throws(SystemError) {
        try LibIIO.check(iio_buffer_set_blocking_mode(try live("iio_buffer_set_blocking_mode"), blocking), "iio_buffer_set_blocking_mode", subject: device.id)
    }

    /// The file descriptor to poll for readability (wraps `iio_buffer_get_poll_fd`; local backend only).
    public func pollDescriptor() throws(SystemError) -> Int32 {
        try LibIIO.check(iio_buffer_get_poll_fd(try live("iio_buffer_get_poll_fd")), "iio_buffer_get_poll_fd", subject: device.id)
    }

    /// Reads scans into the buffer (wraps `iio_buffer_refill`). Blocking: waits for ``capacity``
    /// scans (or the context timeout). Non-blocking: returns what is available, or throws `EAGAIN`.
    /// - Returns: bytes read.
    @discardableResult
    public func refill() throws(SystemError) -> Int {
        try LibIIO.check(iio_buffer_refill(try live("iio_buffer_refill")), "iio_buffer_refill", subject: device.id)
    }

    /// Non-blocking refill (wraps `iio_buffer_refill`): the bytes read, or nil when nothing is
    /// available (`-EAGAIN`, the normal end of a drain, reported without building an error).
    /// The per-sample path: no error value or device name is built unless the refill failed.
    public func refillAvailable() throws(SystemError) -> Int? {
        let n = iio_buffer_refill(try live("iio_buffer_refill"))
        if n >= 0 { return n }
        if n == -Int(Errno.wouldBlock.rawValue) { return nil }
        return try LibIIO.check(n, "iio_buffer_refill", subject: device.id)
    }

    /// Wakes a blocked refill and makes further ones fail (wraps `iio_buffer_cancel`). The buffer must then be destroyed.
    public func cancel() {
        if let h = handle { iio_buffer_cancel(h) }
    }

    /// A handle that cancels this buffer's blocking refill from another thread (the one that
    /// watches for signals and the deadline): libiio's network backend has no poll fd, so a stop
    /// must wake the refill it is blocked in. Valid while the buffer is not destroyed: the
    /// owner stops the canceller's thread before ``destroy()``.
    public var canceller: Canceller? { handle.map { Canceller(handle: $0) } }

    /// Cancels a buffer's refills from another thread (wraps `iio_buffer_cancel`, which libiio
    /// documents as callable from a thread other than the one blocked in `iio_buffer_refill`).
    public struct Canceller: @unchecked Sendable {
        fileprivate let handle: OpaquePointer
        /// Wakes the blocked refill; later refills fail at once.
        public func cancel() { iio_buffer_cancel(handle) }
    }

    /// Bytes between consecutive scans (wraps `iio_buffer_step`).
    public var step: Int {
        guard let h = handle else { return 0 }
        return iio_buffer_step(h)
    }

    /// Calls `body` with the bytes of the last refill (wraps `iio_buffer_start`/`iio_buffer_end`).
    /// The pointer is valid only inside `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let h = handle, let start = iio_buffer_start(h), let end = iio_buffer_end(h) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: start, count: end - start))
    }
}
