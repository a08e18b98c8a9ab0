import CLibIIO
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
    /// - Throws: ``IIOError`` (`EACCES` without permission, `EBUSY` when another reader has it).
    public init(device: IIODevice, capacity: Int) throws(IIOError) {
        errno = 0
        let raw = iio_device_create_buffer(device.handle, capacity, false)
        handle = try IIOError.check(raw, "iio_device_create_buffer", subject: device.id)
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

    private func live(_ call: String) throws(IIOError) -> OpaquePointer {
        guard let h = handle else { throw IIOError(code: 9 /* EBADF */, call: call, message: "buffer already destroyed", subject: device.id) }
        return h
    }

    /// Switches blocking/non-blocking refills (wraps `iio_buffer_set_blocking_mode`).
    public func setBlocking(_ blocking: Bool) throws(IIOError) {
        try IIOError.check(iio_buffer_set_blocking_mode(try live("iio_buffer_set_blocking_mode"), blocking), "iio_buffer_set_blocking_mode", subject: device.id)
    }

    /// The file descriptor to poll for readability (wraps `iio_buffer_get_poll_fd`; local backend only).
    public func pollDescriptor() throws(IIOError) -> Int32 {
        try IIOError.check(iio_buffer_get_poll_fd(try live("iio_buffer_get_poll_fd")), "iio_buffer_get_poll_fd", subject: device.id)
    }

    /// Reads scans into the buffer (wraps `iio_buffer_refill`). Blocking: waits for ``capacity``
    /// scans (or the context timeout). Non-blocking: returns what is available, or throws `EAGAIN`.
    /// - Returns: bytes read.
    @discardableResult
    public func refill() throws(IIOError) -> Int {
        try IIOError.check(iio_buffer_refill(try live("iio_buffer_refill")), "iio_buffer_refill", subject: device.id)
    }

    /// Non-blocking refill (wraps `iio_buffer_refill`): the bytes read, or nil when nothing is
    /// available (`-EAGAIN`, the normal end of a drain, reported without building an error).
    public func refillAvailable() throws(IIOError) -> Int? {
        let n = iio_buffer_refill(try live("iio_buffer_refill"))
        if n == -Int(EAGAIN) { return nil }
        return try IIOError.check(n, "iio_buffer_refill", subject: device.id)
    }

    /// Wakes a blocked refill and makes further ones fail (wraps `iio_buffer_cancel`). The buffer must then be destroyed.
    public func cancel() {
        if let h = handle { iio_buffer_cancel(h) }
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
