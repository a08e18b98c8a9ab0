import CLibIIO
import MotionCore
import MotionSystem

/// One IIO channel (`struct iio_channel`). Borrowed from its device's context, which this value
/// keeps alive through ``device``.
public struct IIOChannel {
    /// The device the channel belongs to.
    public let device: IIODevice
    /// The borrowed libiio handle.
    let handle: OpaquePointer

    /// The channel id, e.g. `accel_x`, `timestamp`, `steps` (wraps `iio_channel_get_id`).
    public var id: String { String(cString: iio_channel_get_id(handle)) }

    /// The extended name, if any (wraps `iio_channel_get_name`).
    public var name: String? { iio_channel_get_name(handle).map { String(cString: $0) } }

    /// Whether it is an output channel (wraps `iio_channel_is_output`).
    public var isOutput: Bool { iio_channel_is_output(handle) }

    /// Whether it can be captured in a buffer (wraps `iio_channel_is_scan_element`).
    public var isScanElement: Bool { iio_channel_is_scan_element(handle) }

    /// The scan index (position in the scan), -1 when not a scan element (wraps `iio_channel_get_index`).
    public var index: Int { Int(iio_channel_get_index(handle)) }

    /// The scan format (wraps `iio_channel_get_data_format`), nil for non-scan channels.
    public var format: ScanElementFormat? {
        guard isScanElement, let f = iio_channel_get_data_format(handle)?.pointee else { return nil }
        return ScanElementFormat(
            isBigEndian: f.is_be, isSigned: f.is_signed, bits: Int(f.bits), storageBits: Int(f.length),
            shift: Int(f.shift), repeatCount: max(1, Int(f.repeat)))
    }

    /// The scale libiio parsed for the scan element, if any (`iio_data_format.with_scale/scale`).
    public var formatScale: Double? {
        guard isScanElement, let f = iio_channel_get_data_format(handle)?.pointee, f.with_scale else { return nil }
        return f.scale
    }

    /// Channel attribute names, without the channel prefix: `raw`, `scale`, `offset`,
    /// `sampling_frequency`, `input` (wraps `iio_channel_get_attrs_count`/`iio_channel_get_attr`).
    public var attributeNames: [String] {
        (0..<iio_channel_get_attrs_count(handle)).compactMap { iio_channel_get_attr(handle, $0).map { String(cString: $0) } }
    }

    /// The sysfs file name behind an attribute, e.g. `in_accel_scale` (wraps `iio_channel_attr_get_filename`).
    public func attributeFilename(_ attribute: String) -> String? {
        iio_channel_attr_get_filename(handle, attribute).map { String(cString: $0) }
    }

    /// Reads a channel attribute as text (wraps `iio_channel_attr_read`).
    public func readAttribute(_ attribute: String) throws(SystemError) -> String {
        try IIOText.read("iio_channel_attr_read", subject: "\(device.id)/\(attributeFilename(attribute) ?? id + "_" + attribute)") {
            iio_channel_attr_read(handle, attribute, $0, $1)
        }
    }

    /// Writes a channel attribute (wraps `iio_channel_attr_write`).
    public func writeAttribute(_ attribute: String, _ value: String) throws(SystemError) {
        try LibIIO.check(iio_channel_attr_write(handle, attribute, value), "iio_channel_attr_write",
                           subject: "\(device.id)/\(attributeFilename(attribute) ?? id + "_" + attribute)")
    }

    /// Marks the channel for capture in the next buffer (wraps `iio_channel_enable`).
    public func enable() { iio_channel_enable(handle) }

    /// Removes the channel from the next buffer (wraps `iio_channel_disable`).
    public func disable() { iio_channel_disable(handle) }

    /// Whether the channel is enabled (wraps `iio_channel_is_enabled`).
    public var isEnabled: Bool { iio_channel_is_enabled(handle) }
}
