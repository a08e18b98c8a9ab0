/// The samples of a `.gt3x` file's `log.bin` (``GT3XLogDecoder``) or `activity.bin` (12-bit
/// packed samples back to back from `info.txt`'s `Start Date`, ``GT3XPacked12``), streamed
/// through a fixed buffer.
final class GT3XRows: RecordingSampleSource, DecodingSampleSource {
    let name: String
    let header: RecordingHeader
    var timeColumn: String { "timestamp" }
    var warnings: [RecordingWarning] { (decoder?.tally ?? tally).warnings }
    /// Samples filled in for idle sleep mode (log.bin), 0 for activity.bin.
    var filledSamples: Int { decoder?.filledSamples ?? 0 }
    var lineNumber: Int { decoder?.recordNumber ?? sampleNumber }
    var bytesRead: Int { buffer.consumed }

    private let source: any RecordingByteSource
    private var buffer: DeviceByteBuffer
    private var decoder: GT3XLogDecoder?
    private var tally = RecordingWarningTally()
    var pending = DecodedSamples()
    private(set) var finished = false
    // activity.bin
    private let startNs: Int64
    private let rate: Int
    private let factor: Double
    private var sampleNumber = 0

    /// Bytes per read: enough for the largest record (8 + 65535 + 1 bytes) several times over.
    static let bufferSize = 1 << 20

    init(source: any RecordingByteSource, info: GT3XInfo, logFormat: Bool, options: RecordingReadOptions) throws {
        self.source = source
        name = source.name
        rate = info.sampleRate
        buffer = DeviceByteBuffer(capacity: Self.bufferSize)
        let zoneSource = info.timeZone != nil ? "info.txt" : "--tz"
        let (timeMetadata, offset) = DeviceTimeBasis.metadata(offset: info.timeZone ?? options.dialect.timeZone, source: zoneSource)
        let offsetNs = Int64(offset.seconds) * 1_000_000_000
        var metadata = timeMetadata
        let device = [info.fields["Device Type"].map { "ActiGraph \($0)" } ?? "ActiGraph", info.serial, info.fields["Firmware"].map { "firmware \($0)" }]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        metadata[RecordingKey.device] = DiagnosticText.escaped(device.utf8, limit: 120)
        metadata[RecordingKey.actualHz] = String(info.sampleRate)
        metadata["gt3x_format"] = logFormat ? "log.bin" : "activity.bin (NEO/MRA firmware up to 2.5.0)"
        if logFormat {
            decoder = GT3XLogDecoder(file: source.name, rate: info.sampleRate, offsetNs: offsetNs, scale: info.accelerationScale, fallbackScale: info.scaleFromSerial)
            startNs = 0
            factor = 0
            if let s = info.accelerationScale ?? info.scaleFromSerial { metadata["accel_scale"] = "\(s.compactText) counts per g (g = 9.80665 m/s^2)" }
        } else {
            guard let start = info.startLocalNs else {
                throw RecordingError(file: source.name, line: nil, problem: "activity.bin needs info.txt's 'Start Date' (the time of the first sample), which is missing")
            }
            let scale = info.accelerationScale ?? info.scaleFromSerial ?? 341
            startNs = start - offsetNs
            factor = AccelerationUnit.standardGravityValue / scale
            metadata[RecordingKey.startUTC] = UTCTime.iso8601(startNs)
            metadata["accel_scale"] = "\(scale.compactText) counts per g (g = 9.80665 m/s^2)"
        }
        header = RecordingHeader(format: .plain, sensors: [.accel], metadata: metadata)
    }

    func read(into samples: inout [Sample], labels: inout [String?], lines: inout [Int], maxSamples: Int) throws -> Int {
        try readDecoded(into: &samples, lines: &lines, maxSamples: maxSamples)
    }

    func refill() throws {
        if decoder != nil {
            if decoder!.filling {
                appendingPending { s, l in decoder!.continueFill(into: &s, lines: &l) }
                return
            }
            try buffer.fill(from: source)
            let atEnd = buffer.atEnd
            try buffer.consume { bytes in try appendingPending { s, l in try decoder!.decode(bytes, atEnd: atEnd, into: &s, lines: &l) } }
            if atEnd && buffer.count == 0 && !decoder!.filling {
                decoder!.finish()
                if !decoder!.filling { finished = true }
            }
            return
        }
        try buffer.fill(from: source)
        let atEnd = buffer.atEnd
        buffer.consume { bytes in decodeActivityBin(bytes, atEnd: atEnd) }
        if atEnd { finished = true }
    }

    /// Whole pairs of samples (9 bytes); at the end, a last odd sample (5 bytes, its last nibble unused).
    private func decodeActivityBin(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) -> Int {
        var count = bytes.count / 9 * 2
        if atEnd && bytes.count - count / 2 * 9 >= 5 { count += 1 }
        pending.samples.reserveCapacity(count)
        for k in 0..<count {
            let raw = GT3XPacked12.sample(bytes, k)
            let n = sampleNumber + k
            let t = startNs + Int64(n / rate) * 1_000_000_000 + GT3XLogDecoder.offsetNs(n % rate, rate: rate)
            pending.samples.append(Sample(timestamp: t, accel: Vector3(Double(raw.0) * factor, Double(raw.1) * factor, Double(raw.2) * factor)))
            pending.lines.append(n + 1)
        }
        sampleNumber += count
        let used = count / 2 * 9 + (count % 2 == 1 ? 5 : 0)
        if atEnd && used < bytes.count {
            tally.add(.truncatedBlock, file: name, line: sampleNumber + 1, message: "activity.bin ends inside a sample: its \(bytes.count - used) bytes dropped")
            return bytes.count
        }
        return used
    }
}
