import CLibIIO
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// One IIO device (`struct iio_device`). The handle belongs to its ``IIOContext``, which this
/// value keeps alive; the device itself is never freed separately.
public struct IIODevice {
    /// The owning context (kept alive by this reference).
    public let context: IIOContext
    /// The borrowed libiio handle.
    let handle: OpaquePointer

    /// The kernel id, `iio:deviceN` (wraps `iio_device_get_id`).
    public var id: String { String(cString: iio_device_get_id(handle)) }

    /// The driver's name, e.g. `accel_3d`, `lsm6dsm_accel` (wraps `iio_device_get_name`).
    public var name: String? { iio_device_get_name(handle).map { String(cString: $0) } }

    /// The device label, if the kernel provides one (wraps `iio_device_get_label`).
    public var label: String? { iio_device_get_label(handle).map { String(cString: $0) } }

    /// Whether the device is a trigger (wraps `iio_device_is_trigger`).
    public var isTrigger: Bool { iio_device_is_trigger(handle) }

    /// Every channel (wraps `iio_device_get_channels_count`/`iio_device_get_channel`).
    public var channels: [IIOChannel] {
        let n = iio_device_get_channels_count(handle)
        return (0..<n).compactMap { i in iio_device_get_channel(handle, i).map { IIOChannel(device: self, handle: $0) } }
    }

    /// The input or output channel with this id or name (wraps `iio_device_find_channel`).
    public func channel(_ name: String, output: Bool = false) -> IIOChannel? {
        iio_device_find_channel(handle, name, output).map { IIOChannel(device: self, handle: $0) }
    }

    /// Device attribute names (wraps `iio_device_get_attrs_count`/`iio_device_get_attr`).
    public var attributeNames: [String] {
        (0..<iio_device_get_attrs_count(handle)).compactMap { iio_device_get_attr(handle, $0).map { String(cString: $0) } }
    }

    /// Buffer attribute names (`length`, `watermark`, `hwfifo_timeout`, ...)
    /// (wraps `iio_device_get_buffer_attrs_count`/`iio_device_get_buffer_attr`).
    public var bufferAttributeNames: [String] {
        (0..<iio_device_get_buffer_attrs_count(handle)).compactMap { iio_device_get_buffer_attr(handle, $0).map { String(cString: $0) } }
    }

    /// Whether any channel is a scan element, i.e. the device can stream through a buffer.
    public var isBufferCapable: Bool { channels.contains { $0.isScanElement } }

    /// Reads a device attribute as text (wraps `iio_device_attr_read`).
    public func readAttribute(_ name: String) throws(SystemError) -> String {
        try IIOText.read("iio_device_attr_read", subject: "\(id)/\(name)") { iio_device_attr_read(handle, name, $0, $1) }
    }

    /// Writes a device attribute (wraps `iio_device_attr_write`).
    public func writeAttribute(_ name: String, _ value: String) throws(SystemError) {
        try LibIIO.check(iio_device_attr_write(handle, name, value), "iio_device_attr_write", subject: "\(id)/\(name)")
    }

    /// Reads a buffer attribute as text (wraps `iio_device_buffer_attr_read`).
    public func readBufferAttribute(_ name: String) throws(SystemError) -> String {
        try IIOText.read("iio_device_buffer_attr_read", subject: "\(id)/buffer/\(name)") { iio_device_buffer_attr_read(handle, name, $0, $1) }
    }

    /// Writes a buffer attribute (wraps `iio_device_buffer_attr_write`).
    public func writeBufferAttribute(_ name: String, _ value: String) throws(SystemError) {
        try LibIIO.check(iio_device_buffer_attr_write(handle, name, value), "iio_device_buffer_attr_write", subject: "\(id)/buffer/\(name)")
    }

    /// Sets how many kernel buffers libiio asks for (wraps `iio_device_set_kernel_buffers_count`);
    /// on mainline kernels the kernel buffer length becomes samples x count. Call before creating the buffer.
    public func setKernelBuffersCount(_ count: UInt32) throws(SystemError) {
        try LibIIO.check(iio_device_set_kernel_buffers_count(handle, count), "iio_device_set_kernel_buffers_count", subject: id)
    }

    /// Bytes per scan for the enabled channels (wraps `iio_device_get_sample_size`).
    public func sampleSize() throws(SystemError) -> Int {
        try LibIIO.check(iio_device_get_sample_size(handle), "iio_device_get_sample_size", subject: id)
    }

    /// The device's trigger's name, when it has one (wraps `iio_device_get_trigger`).
    public func triggerName() throws(SystemError) -> String? {
        var trigger: OpaquePointer?
        let r = iio_device_get_trigger(handle, &trigger)
        if r == -ENOENT { return nil }
        try LibIIO.check(r, "iio_device_get_trigger", subject: id)
        return trigger.flatMap { iio_device_get_name($0) }.map { String(cString: $0) }
    }
}
