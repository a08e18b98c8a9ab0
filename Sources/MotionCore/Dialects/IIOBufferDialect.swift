/// A raw IIO buffer capture, as `iio_readdev DEVICE > capture.bin` or a read of
/// `/dev/iio:deviceN` writes it: no header, scans back to back, each laid out by the kernel's rule
/// from the enabled channels (``ScanLayout``: scan-index order, each element aligned to its size).
/// The layout must be given (``RecordingDialectOptions/scanLayout``: `--layout`); decoded by
/// ``ScanDecoder``, the same code the live capture uses.
///
/// Mapping (docs/dialects.md): `timestamp` (s64 ns, the device's `current_timestamp_clock`) →
/// `timestamp_ns`; `accel_*` → `(raw + offset) × scale` m/s²; `anglvel_*` → rad/s. Errors and
/// warnings count scans (1-based) where text dialects count lines. A trailing partial scan (a
/// capture cut short) is dropped with a warning; scans at the format's raw limits are counted
/// (`clipped-scan`).
struct IIOBufferDialect: RecordingDialect {
    static let dialectName = "iio"
    var name: String { Self.dialectName }
    var summary: String { "raw IIO buffer (iio_readdev, /dev/iio:deviceN) with --layout 'ID:FORMAT[:SCALE[:OFFSET]],...' or --layout devices.json[#DEVICE]" }

    /// Bytes looked at for binary data: the smallest block a reader uses (``RecordingReadOptions``),
    /// so that the choice never depends on the block size. A raw scan holds zero bytes (padding,
    /// a timestamp's high bytes) within its first 16 bytes.
    static let binarySniffLength = RecordingReadOptions.minimumBufferSize

    /// Binary data: a NUL byte, or bytes that are not UTF-8 text, in the first 64 bytes (a text
    /// file with a bad byte later is left to the text dialects, whose errors name its line).
    func recognizes(_ prefix: [UInt8]) -> Bool {
        let head = prefix.prefix(Self.binarySniffLength)
        return head.contains(0) || String(validating: head.dropLast(min(3, head.count)), as: UTF8.self) == nil
    }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        if prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF]) {
            throw RecordingError(file: source.name, line: 1, column: 1, problem: "is UTF-16 text; recordings are read as UTF-8 (save the file as UTF-8)")
        }
        guard let layout = options.dialect.scanLayout else {
            throw RecordingError(file: source.name, byteOffset: 0,
                                 problem: "looks like binary data (a raw IIO buffer capture?): give its scan layout with --layout 'accel_x:le:s16/16>>0:SCALE,...,timestamp:le:s64/64>>0' or --layout devices.json (from motionbatch devices --json); see docs/dialects.md")
        }
        return OrderedRows(source: IIOBufferRows(source: source, prefix: prefix, layout: layout))
    }
}

/// The scans of a raw IIO buffer, decoded block by block into samples (``ScanDecoder``).
final class IIOBufferRows: RecordingSampleSource {
    let name: String
    let header: RecordingHeader
    var timeColumn: String { "timestamp" }
    var warnings: [RecordingWarning] {
        var t = tally
        if clipped > 0 {
            var w = RecordingWarning(kind: .clippedScan, file: name, line: firstClipped,
                                     message: "scans with an axis at the end of its raw range (the sensor's full scale: the true value may be beyond it); kept")
            w.count = clipped
            t.add(w)
        }
        return t.warnings
    }
    private(set) var lineNumber = 0
    private(set) var bytesRead = 0

    private let source: any RecordingByteSource
    private let decoder: ScanDecoder
    private let scanBytes: Int
    private var buffer: [UInt8]
    private var filled: Int
    private var atEnd = false
    private var tally = RecordingWarningTally()
    private var clipped = 0
    private var firstClipped = 0
    private var decoded: [Sample] = []

    /// Scans decoded per read.
    static let scansPerBlock = 4096

    init(source: any RecordingByteSource, prefix: [UInt8], layout: IIOBufferLayout) {
        self.source = source
        name = source.name
        let scan = layout.scanLayout
        let conversions = Dictionary(uniqueKeysWithValues: layout.channels.map { ($0.id, (scale: $0.scale, offset: $0.offset)) })
        decoder = ScanDecoder(layout: scan) { conversions[$0] ?? (scale: 1, offset: 0) }
        scanBytes = scan.scanBytes
        buffer = [UInt8](repeating: 0, count: max(prefix.count, scanBytes * Self.scansPerBlock))
        buffer.replaceSubrange(0..<prefix.count, with: prefix)
        filled = prefix.count
        var metadata: [String: String] = [
            RecordingKey.clock: layout.clock.map { "\($0) (the IIO timestamp channel)" } ?? "the IIO timestamp channel (the device's current_timestamp_clock)",
            "layout": layout.text,
        ]
        if let d = layout.device { metadata[RecordingKey.device] = DiagnosticText.escaped(d.utf8, limit: 80) }
        if let f = layout.samplingFrequency, InputLimits.rate.contains(f) { metadata[RecordingKey.actualHz] = f.compactText }
        for c in layout.channels {
            let column: String?
            switch c.id {
            case "accel_x", "accel_y", "accel_z": column = c.id
            case "anglvel_x", "anglvel_y", "anglvel_z": column = "gyro_" + c.id.dropFirst("anglvel_".count)
            default: column = nil
            }
            if let column { metadata[RecordingKey.channelPrefix + column] = (column.hasPrefix("gyro") ? "rad/s" : "m/s^2") + " scale=\(c.scale.compactText)" + (c.offset != 0 ? " offset=\(c.offset.compactText)" : "") + " \(c.format)" }
        }
        header = RecordingHeader(format: .plain, sensors: decoder.sensors, metadata: metadata)
        valueFormats = ["accel_x", "accel_y", "accel_z", "gyro_x", "gyro_y", "gyro_z"].map { column in
            metadata[RecordingKey.channelPrefix + column].flatMap { RecordingValueFormat(channelDescription: $0) }
        }
    }

    /// Per value column (accel_x ... gyro_z), the scale declared in the header, if any: decoded
    /// values are snapped to the double nearest the exact decimal `raw × scale`, which is what a
    /// recording written from them reads back (``RecordingValueFormat``).
    private var valueFormats: [RecordingValueFormat?] = []

    func read(into samples: inout [Sample], labels: inout [String?], lines: inout [Int], maxSamples: Int) throws -> Int {
        guard scanBytes > 0 else { return 0 }
        // Fill the buffer with whole scans (or to the end).
        while filled < buffer.count && !atEnd {
            let n = try buffer.withUnsafeMutableBytes { b in try source.read(into: b.baseAddress! + filled, count: b.count - filled) }
            if n == 0 { atEnd = true } else { filled += n }
        }
        let whole = min(filled / scanBytes, maxSamples)
        guard whole > 0 else {
            if filled > 0 {
                lineNumber += 1
                tally.add(.tornFinalLine, file: name, line: lineNumber,
                          message: "the capture ends inside a scan (cut short): its \(filled) of \(scanBytes) bytes dropped")
                bytesRead += filled
                filled = 0
            }
            return 0
        }
        decoded.removeAll(keepingCapacity: true)
        var clippedHere = 0
        buffer.withUnsafeBytes { b in
            _ = decoder.decode(UnsafeRawBufferPointer(rebasing: b[0..<(whole * scanBytes)]), into: &decoded, clipped: &clippedHere)
        }
        for i in decoded.indices {
            for k in 0..<3 {
                if let f = valueFormats[k] { decoded[i].accel[k] = f.nearestDeviceValue(decoded[i].accel[k]) }
                if let f = valueFormats[3 + k] { decoded[i].gyro[k] = f.nearestDeviceValue(decoded[i].gyro[k]) }
            }
        }
        for (i, s) in decoded.enumerated() {
            let scan = lineNumber + i + 1
            let offset = bytesRead + i * scanBytes
            guard InputLimits.containsTimestamp(s.timestamp) else {
                throw RecordingError(file: name, byteOffset: offset, columnName: "timestamp",
                                     problem: "scan \(scan): timestamp \(s.timestamp) ns is out of range (allowed \(InputLimits.timestampRangeText))")
            }
            for (k, v) in [s.accel.x, s.accel.y, s.accel.z, s.gyro.x, s.gyro.y, s.gyro.z].enumerated() where !InputLimits.acceleration.contains(v) {
                let rule = k < 3 ? InputLimits.acceleration : InputLimits.angularRate
                throw RecordingError(file: name, byteOffset: offset, columnName: ["accel_x", "accel_y", "accel_z", "anglvel_x", "anglvel_y", "anglvel_z"][k],
                                     problem: "scan \(scan): " + rule.problem(v.compactText) + " (check the layout's scale)")
            }
        }
        if clippedHere > 0 && clipped == 0 { firstClipped = lineNumber + 1 }
        clipped += clippedHere
        samples.append(contentsOf: decoded)
        lines.append(contentsOf: (lineNumber + 1)...(lineNumber + whole))
        lineNumber += whole
        bytesRead += whole * scanBytes
        // Keep the bytes after the decoded scans.
        let rest = filled - whole * scanBytes
        if rest > 0 {
            buffer.withUnsafeMutableBytes { b in b.baseAddress!.copyMemory(from: b.baseAddress! + whole * scanBytes, byteCount: rest) }
        }
        filled = rest
        return whole
    }
}
