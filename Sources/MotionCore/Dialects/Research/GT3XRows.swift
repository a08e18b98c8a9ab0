/// The samples of a `.gt3x` file's `log.bin` (``GT3XLogDecoder``) or `activity.bin` (12-bit
/// packed samples back to back from `info.txt`'s `Start Date`, ``GT3XPacked12``), streamed
/// through a fixed buffer.
final class GT3XRows: DeviceSampleSource {
    let name: String
    let header: RecordingHeader
    var warnings: [RecordingWarning] { (decoder?.tally ?? tally).warnings }
    /// Samples filled in for idle sleep mode (log.bin), 0 for activity.bin.
    var filledSamples: Int { decoder?.filledSamples ?? 0 }
    var lineNumber: Int { decoder?.recordNumber ?? sampleNumber }
    var bytesRead: Int { buffer.consumed }

    private let source: any RecordingByteSource
    private var buffer: DeviceByteBuffer
    private var decoder: GT3XLogDecoder?
    private var tally = RecordingWarningTally()
    /// The input is exhausted (and the decoder finished).
    private var finished = false
    /// The buffer's bytes hold no whole record (or pair of samples) more: fill it before decoding.
    private var needBytes = true
    // activity.bin
    private let startNs: Int64
    private let rate: Int
    private let factor: Double
    private var sampleNumber = 0
    /// The first sample of the pair at the buffer's start was handed out (its bytes not consumed).
    private var half = false

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

    func decode(into out: inout DeviceSampleWriter) throws {
        while out.room > 0 && !out.failed {
            if decoder != nil {
                if decoder!.hasPartial {
                    decoder!.continuePartial(into: &out)
                    continue
                }
                if decoder!.filling {
                    decoder!.continueFill(into: &out)
                    continue
                }
            }
            if finished { return }
            if needBytes {
                try buffer.fill(from: source)
                needBytes = false
            }
            let atEnd = buffer.atEnd
            if decoder != nil {
                try buffer.consume { bytes in try decoder!.decode(bytes, atEnd: atEnd, into: &out) }
                if out.room == 0 || out.failed || decoder!.filling || decoder!.hasPartial { continue }
            } else {
                var exhausted = false
                buffer.consume { bytes in decodeActivityBin(bytes, atEnd: atEnd, into: &out, exhausted: &exhausted) }
                if !exhausted { continue }
            }
            // Decoding stopped for want of bytes.
            if atEnd {
                decoder?.finish()
                finished = true
            } else {
                needBytes = true
            }
        }
    }

    /// Samples of activity.bin, as many as `out` has room for: whole pairs of samples (9 bytes)
    /// are consumed (the second of a pair may follow at the next call: ``half``); at the end, a
    /// last odd sample (5 bytes, its last nibble unused). `exhausted`: every sample in `bytes` was
    /// written.
    private func decodeActivityBin(_ bytes: UnsafeRawBufferPointer, atEnd: Bool, into out: inout DeviceSampleWriter, exhausted: inout Bool) -> Int {
        var available = bytes.count / 9 * 2
        if atEnd && bytes.count - available / 2 * 9 >= 5 { available += 1 }
        let first = half ? 1 : 0
        let end = first + min(available - first, out.room)
        let n = end - first
        let (startNs, factor, rate, number) = (startNs, factor, rate, sampleNumber)
        var second = Int64(number / rate)
        var k = number % rate
        var offsets = EvenNanoseconds(rate: rate, from: k)
        out.putRun(n, lines: { j in number + j + 1 }) { j in
            if k == rate {
                second += 1
                k = 0
                offsets = EvenNanoseconds(rate: rate, from: 0)
            }
            k += 1
            return GT3XLogDecoder.sample(GT3XPacked12.sample(bytes, first + j), at: startNs + second * 1_000_000_000 + offsets.next(), factor: factor)
        }
        sampleNumber += n
        var used = end / 2 * 9
        half = end % 2 == 1
        exhausted = end == available
        if exhausted && atEnd && half {
            used += 5
            half = false
        }
        if exhausted && atEnd && used < bytes.count {
            tally.add(.truncatedBlock, file: name, line: sampleNumber + 1, message: "activity.bin ends inside a sample: its \(bytes.count - used) bytes dropped")
            return bytes.count
        }
        return used
    }
}
