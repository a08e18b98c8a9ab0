/// Axivity AX3 and AX6 `.cwa` files (the UK Biobank's device): a 1024-byte header block
/// (``CWAHeader``) then 512-byte data blocks (``CWABlockDecoder``), described in
/// openmovementproject/openmovement `Docs/ax3/cwa.h`. Read as a stream (flat memory).
///
/// Mapping (docs/dialects.md, docs/research.md): AX3 packed (10-bit, exponent, 1/256 g) and
/// unpacked (16-bit, 1/2^(8+n) g) accelerometer values × 9.80665 → m/s²; AX6 gyroscope
/// (range 4000/2^n dps over 32768) → rad/s. Times are the device's local time (the header's
/// time zone field is unused): UTC with `--tz`, else kept local (`time_basis: device-local`).
struct CWADialect: RecordingDialect {
    static let dialectName = "cwa"
    var name: String { Self.dialectName }
    var summary: String { "Axivity AX3/AX6 .cwa (packed 10-bit or 16-bit accelerometer, AX6 gyroscope)" }

    /// `MD`, a plausible header length, and binary bytes (a CWA header holds zeros).
    func recognizes(_ prefix: [UInt8]) -> Bool {
        CWAHeader.recognizes(prefix) && IIOBufferDialect().recognizes(prefix)
    }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        DeviceOrderedRows(source: try CWARows(source: source, prefix: prefix, options: options))
    }
}

/// The samples of a `.cwa` file, block by block through a fixed buffer.
final class CWARows: DeviceSampleSource {
    let name: String
    let header: RecordingHeader
    var warnings: [RecordingWarning] {
        var t = stream.decoder.tally
        for w in stream.tally.warnings { t.add(w) }
        return t.warnings
    }
    var lineNumber: Int { stream.decoder.blockNumber }
    var bytesRead: Int { stream.buffer.consumed }

    private let source: any RecordingByteSource
    /// The reading state, in one value: a call to ``decode(into:)`` accesses this class once
    /// (no exclusivity check per block).
    fileprivate var stream: Stream

    fileprivate struct Stream {
        var buffer: DeviceByteBuffer
        var decoder: CWABlockDecoder
        var tally = RecordingWarningTally()
        /// The last block was read (and the decoder finished).
        var finished = false
    }

    /// Bytes per read: 2048 blocks.
    static let bufferSize = 1 << 20

    init(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws {
        self.source = source
        name = source.name
        var buffer = DeviceByteBuffer(capacity: Self.bufferSize, prefix: prefix)
        try buffer.fill(from: source)
        var head: [UInt8] = []
        buffer.consume { b in head = Array(b.prefix(CWAHeader.size)); return 0 }
        let cwa = try CWAHeader(head, file: source.name)
        guard cwa.dataOffset <= DeviceByteBuffer.maxSkip else {
            throw RecordingError(file: source.name, byteOffset: 2, problem: "header block of \(cwa.dataOffset) bytes is longer than CWA files have")
        }
        guard buffer.count >= cwa.dataOffset else {
            throw RecordingError(file: source.name, byteOffset: buffer.count, problem: "the file ends inside its header block (\(cwa.dataOffset) bytes)")
        }
        buffer.consume { _ in cwa.dataOffset }
        let (timeMetadata, offset) = DeviceTimeBasis.metadata(offset: options.dialect.timeZone, source: "--tz")
        stream = Stream(buffer: buffer, decoder: CWABlockDecoder(file: source.name, offsetNs: Int64(offset.seconds) * 1_000_000_000, headerGyroRangeDPS: cwa.gyroRangeDPS))
        var metadata = timeMetadata
        metadata[RecordingKey.device] = "Axivity \(cwa.model) device \(cwa.deviceID) session \(cwa.sessionID) firmware \(cwa.firmwareRevision)"
        metadata[RecordingKey.actualHz] = CWAHeader.rateHz(code: cwa.rateCode).compactText
        metadata["accel_range"] = "±\(CWAHeader.rangeG(code: cwa.rateCode)) g"
        let sensors: SensorSet = cwa.hardwareType == 0x64 && cwa.gyroRangeDPS != nil ? [.accel, .gyro] : .accel
        header = RecordingHeader(format: .plain, sensors: sensors, metadata: metadata)
    }

    func decode(into out: inout DeviceSampleWriter) throws {
        try stream.decode(into: &out, from: source, name: name)
    }
}

extension CWARows.Stream {
    mutating func decode(into out: inout DeviceSampleWriter, from source: any RecordingByteSource, name: String) throws {
        let size = CWABlockDecoder.blockSize
        while out.room > 0 && !out.failed {
            if decoder.hasReady {
                decoder.write(into: &out)
            } else if finished {
                return
            } else if buffer.count >= size {
                // Blocks until one is ready to write (usually the first).
                buffer.consume(with: &decoder) { bytes, decoder in
                    var used = 0
                    while !decoder.hasReady && bytes.count - used >= size {
                        decoder.accept(block: UnsafeRawBufferPointer(rebasing: bytes[used..<(used + size)]))
                        used += size
                    }
                    return used
                }
            } else if !buffer.atEnd {
                try buffer.fill(from: source)
            } else {
                if buffer.count > 0 {
                    tally.add(.truncatedBlock, file: name, line: decoder.blockNumber + 1,
                              message: "the file ends inside a data block (cut short): its \(buffer.count) bytes dropped")
                    buffer.consume { $0.count }
                }
                decoder.finish()
                finished = true
            }
        }
    }
}
