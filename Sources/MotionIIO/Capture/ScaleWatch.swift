import CLibIIO
import MotionCore
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// The scale and offset attribute files behind a stream's decoder, re-read by the capture once a
/// second to notice a range changed under it (``IIOCapture``'s scale re-check), without
/// allocating: the files are found when the stream is configured (each read once per check,
/// however many axes share it), read into a buffer on the stack — straight from sysfs on the
/// local backend (libiio's attribute reads allocate: `fopen`), each file opened once and read
/// again with `pread` at offset 0 (sysfs renders the value afresh for a read at 0; opening the
/// files every second was ~10 % of the capture's CPU at batch 100 under QEMU TCG), through `iio_channel_attr_read`
/// on the others, from the table for a ``SimulatedDevice`` — and parsed as bytes. Only when a
/// value differs from the decoder's does the capture read them again the general way and build a
/// new decoder (``IIOCapture/readConversions(_:values:)``), so the values it applies are the same.
struct ScaleWatch {
    /// Where one attribute file's text is read.
    enum Source {
        /// `/sys/bus/iio/devices/DEVICE/FILE` (local backend), NUL-terminated, and the file kept
        /// open for reading (nil when it could not be opened: then opened for each read).
        case sysfs(ContiguousArray<CChar>, FileDescriptor?)
        /// `iio_channel_attr_read` of the attribute (NUL-terminated name).
        case libiio(IIOChannel, ContiguousArray<CChar>)
        /// A simulated device's value (nil: unreadable).
        case text(ContiguousArray<UInt8>?)
    }

    /// One decoder axis: the files of its scale and offset (indices in ``sources``, nil when the
    /// channel has no such attribute) and the scale used when there is none to read.
    struct Axis {
        var scale: Int?
        var fallbackScale: Double
        var offset: Int?
    }

    private var sources: [Source] = []
    private var values: [Double?] = []
    /// The decoder's accelerometer axes, then its gyroscope axes.
    private var axes: [Axis] = []

    /// The files behind `decoder`'s axes on `device` (as ``IIOCapture/readConversions(_:values:)``
    /// finds them), read from sysfs when `local`, from `table` when given.
    init(decoder: ScanDecoder, device: IIODevice, local: Bool, table: [String: String]?) {
        var files: [String: Int] = [:]
        let channels = device.channels
        func source(_ c: IIOChannel, _ attr: String) -> Int? {
            guard c.attributeNames.contains(attr) else { return nil }
            let file = c.attributeFilename(attr) ?? "\(c.id)_\(attr)"
            if let k = files[file] { return k }
            let s: Source
            if let table {
                s = .text(table[SensorDiscovery.AttributeRef.channel(c, attr).path(in: device)].map { ContiguousArray($0.utf8) })
            } else if local {
                let path = "/sys/bus/iio/devices/\(device.id)/\(file)"
                s = .sysfs(path.utf8CString, try? FileDescriptor.openForReading(path))
            } else {
                s = .libiio(c, attr.utf8CString)
            }
            sources.append(s)
            files[file] = sources.count - 1
            return sources.count - 1
        }
        var ids: [String] = []
        if decoder.accel != nil { ids += ["accel_x", "accel_y", "accel_z"] }
        if decoder.gyro != nil { ids += ["anglvel_x", "anglvel_y", "anglvel_z"] }
        for id in ids {
            guard let c = channels.last(where: { $0.id == id }) else {
                axes.append(Axis(scale: nil, fallbackScale: 1, offset: nil))
                continue
            }
            axes.append(Axis(scale: source(c, "scale"), fallbackScale: c.formatScale ?? 1, offset: source(c, "offset")))
        }
        values = Array(repeating: nil, count: sources.count)
    }

    /// Reads every file and tells whether a scale or offset differs from `decoder`'s.
    mutating func changed(from decoder: ScanDecoder) -> Bool {
        for k in sources.indices { values[k] = Self.read(sources[k]) }
        var i = 0
        if let group = decoder.accel, differs(group, from: &i) { return true }
        if let group = decoder.gyro, differs(group, from: &i) { return true }
        return false
    }

    /// Whether the values read differ from `group`'s axes, ``axes`` from index `i` on.
    private func differs(_ group: [ScanDecoder.Axis], from i: inout Int) -> Bool {
        for a in group {
            guard i < axes.count else { return true }
            let axis = axes[i]
            i += 1
            let scale = axis.scale.flatMap { values[$0] } ?? axis.fallbackScale
            let offset = axis.offset.flatMap { values[$0] } ?? 0
            if scale != a.scale || offset != a.rawOffset { return true }
        }
        return false
    }

    /// One file's value (``AttributeText/double(_:)``'s reading), nil when unreadable.
    static func read(_ source: Source) -> Double? {
        withUnsafeTemporaryAllocation(byteCount: 256, alignment: 8) { buffer -> Double? in
            let base = buffer.baseAddress!
            var n = 0
            switch source {
            case .sysfs(_, let file?):
                guard let got = try? file.read(into: base, count: buffer.count, at: 0) else { return nil }
                n = got
            case .sysfs(let path, nil):
                let fd = path.withUnsafeBufferPointer { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
                guard fd >= 0 else { return nil }
                defer { close(fd) }
                while true {
                    let got = Glibc.read(fd, base, buffer.count)
                    if got < 0, errno == EINTR { continue }
                    guard got >= 0 else { return nil }
                    n = got
                    break
                }
            case .libiio(let channel, let attr):
                let got = attr.withUnsafeBufferPointer { iio_channel_attr_read(channel.handle, $0.baseAddress!, base.assumingMemoryBound(to: CChar.self), buffer.count) }
                guard got >= 0 else { return nil }
                n = 0
                while n < buffer.count, buffer[n] != 0 { n += 1 }
            case .text(let text):
                guard let text, text.count <= buffer.count else { return text.flatMap { AttributeText.double(String(decoding: $0, as: UTF8.self)) } }
                text.withUnsafeBytes { buffer.copyMemory(from: $0) }
                n = text.count
            }
            // AttributeText.double: surrounding spaces, tabs and newlines trimmed.
            var lo = 0, hi = n
            func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }
            while lo < hi, space(buffer[lo]) { lo += 1 }
            while hi > lo, space(buffer[hi - 1]) { hi -= 1 }
            guard lo < hi else { return nil }
            let text = UnsafeRawBufferPointer(rebasing: buffer[lo..<hi])
            if let v = DecimalScanner.double(bytes: text) { return v }
            // Outside the decimal grammar (Swift's Double reads more forms): the general way.
            return AttributeText.double(String(decoding: text, as: UTF8.self))
        }
    }
}
