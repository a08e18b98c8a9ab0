/// The records of an ActiGraph `log.bin` (actigraph/GT3X-File-Format, README "Log Records"),
/// decoded into samples: a pure state machine, fed the file's bytes in any pieces (no I/O).
///
/// A record is `1E`, a type byte, a u32 LE timestamp (whole seconds of the device's local time,
/// counted like Unix time), a u16 LE payload size, the payload, and a checksum byte: the ones'
/// complement of the XOR of header and payload. Read here:
/// - `ACTIVITY` (0x00): one second of samples, 12-bit two's complement, packed big-endian in
///   Y, X, Z order (a 1-byte payload is a USB connection event, not samples);
/// - `ACTIVITY2` (0x1A): one second of samples, s16 LE in X, Y, Z order;
/// - `PARAMETERS` (0x15): `ACCEL_SCALE` (address 0, id 55) when `info.txt` gives no scale, and
///   `FEATURE_ENABLE` (address 1, id 2) bit 2, idle sleep mode;
/// - `EVENT` (0x03) payload `08` (idle sleep mode entered) and `09` (left).
/// Other types are skipped. Sample `i` of a record stamped `S` is at `S + i / rate`.
///
/// **Idle sleep mode** (the rule ActiLife applies, as pygt3x reproduces it): the device writes no
/// samples while asleep; on leaving at second `T`, every second from the one after the last
/// recorded second up to `T − 1` is filled with `rate` copies of the last sample. A recording that
/// ends asleep is filled up to the last record's second (exclusive). A new ACTIVITY record while
/// asleep (no `09` event) ends the mode without a fill.
///
/// **Defects**: a record whose checksum does not match is skipped (`bad-checksum`); zero bytes
/// between records are skipped silently (documented padding); other bytes there are skipped to
/// the next `1E` (`stray-bytes`); a file that ends inside a record drops it (`truncated-block`).
struct GT3XLogDecoder {
    /// The file named in warnings and errors.
    let file: String
    /// Samples per second.
    let rate: Int
    /// Subtracted from the device's local time to give `timestamp_ns` (the UTC offset, in ns).
    let offsetNs: Int64
    /// Counts per g; nil until known (from `info.txt`, a PARAMETERS record or the serial number).
    private(set) var scale: Double?
    /// The scale to use when neither `info.txt` nor a PARAMETERS record gives one.
    let fallbackScale: Double?
    /// Whether the PARAMETERS record enabled idle sleep mode (nil: no such record yet).
    private(set) var idleSleepModeEnabled: Bool?
    /// Samples filled in for idle sleep mode.
    private(set) var filledSamples = 0
    /// Records read so far (the "line" numbers of warnings and errors).
    private(set) var recordNumber = 0
    /// Bytes consumed so far.
    private(set) var offset = 0
    private(set) var tally = RecordingWarningTally()

    private var lastSecond: Int64?
    private var lastRaw: (Int16, Int16, Int16)?
    private var asleep = false
    /// The second (exclusive) up to which a fill is pending.
    private var fillEnd: Int64?
    private var lastRecordSecond: Int64?
    private var stray = false

    static let separator: UInt8 = 0x1E
    static let headerSize = 8
    static let activity: UInt8 = 0x00
    static let activity2: UInt8 = 0x1A
    static let parameters: UInt8 = 0x15
    static let event: UInt8 = 0x03
    static let standardGravity = AccelerationUnit.standardGravityValue

    init(file: String, rate: Int, offsetNs: Int64, scale: Double?, fallbackScale: Double?) {
        self.file = file
        self.rate = rate
        self.offsetNs = offsetNs
        self.scale = scale
        self.fallbackScale = fallbackScale
    }

    /// Decodes the whole records at the start of `bytes`, appending their samples and each
    /// sample's record number. `atEnd`: no more bytes follow (a partial record is then a defect).
    /// - Returns: the bytes consumed (the rest, a partial record, must be offered again with more).
    /// - Throws: ``RecordingError`` for samples before any scale is known.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, atEnd: Bool, into samples: inout [Sample], lines: inout [Int]) throws -> Int {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b != Self.separator {
                if b != 0 && !stray {
                    stray = true
                    tally.add(.strayBytes, file: file, line: recordNumber + 1, message: "bytes between log records that belong to none: skipped to the next record")
                }
                i += 1
                offset += 1
                continue
            }
            guard n - i >= Self.headerSize else { break }
            let size = Int(bytes[i + 6]) | Int(bytes[i + 7]) << 8
            let total = Self.headerSize + size + 1
            guard n - i >= total else { break }
            stray = false
            recordNumber += 1
            var x: UInt8 = 0
            for k in i..<(i + Self.headerSize + size) { x ^= bytes[k] }
            if ~x != bytes[i + total - 1] {
                tally.add(.badChecksum, file: file, line: recordNumber, message: "a log record whose checksum does not match: skipped")
            } else {
                let type = bytes[i + 1]
                let second = Int64(UInt32(bytes[i + 2]) | UInt32(bytes[i + 3]) << 8 | UInt32(bytes[i + 4]) << 16 | UInt32(bytes[i + 5]) << 24)
                let payload = UnsafeRawBufferPointer(rebasing: bytes[(i + Self.headerSize)..<(i + Self.headerSize + size)])
                try record(type: type, second: second, payload: payload, into: &samples, lines: &lines)
            }
            i += total
            offset += total
            // A fill is handed out before the records after it (``continueFill``).
            if filling { return i }
        }
        if atEnd && i < n {
            recordNumber += 1
            tally.add(.truncatedBlock, file: file, line: recordNumber, message: "the file ends inside a log record (a download cut short): its \(n - i) bytes dropped")
            offset += n - i
            i = n
        }
        return i
    }

    /// At the end of the file: starts the fill of an idle sleep mode still active (then
    /// ``filling``: ``continueFill`` hands it out).
    mutating func finish() {
        if asleep, let end = lastRecordSecond { fill(upTo: end) }
        asleep = false
    }

    /// Whether an idle sleep mode fill is being handed out (``continueFill`` until false).
    var filling: Bool { fillEnd != nil }

    /// Appends the next seconds of the pending fill (at most about 64 Ki samples).
    mutating func continueFill(into samples: inout [Sample], lines: inout [Int]) {
        guard let end = fillEnd, let last = lastSecond, let raw = lastRaw, let s = scale ?? fallbackScale else { fillEnd = nil; return }
        let stop = min(end, last + 1 + Int64(max(1, Self.fillChunk / rate)))
        let factor = Self.standardGravity / s
        for second in (last + 1)..<stop {
            let base = second * 1_000_000_000 - offsetNs
            for k in 0..<rate { samples.append(sample(raw, at: base + Self.offsetNs(k, rate: rate), factor: factor)) }
        }
        let added = Int(stop - last - 1) * rate
        lines.append(contentsOf: repeatElement(recordNumber, count: added))
        filledSamples += added
        lastSecond = stop - 1
        if stop >= end { fillEnd = nil }
    }

    /// Samples handed out per ``continueFill`` call, about.
    static let fillChunk = 1 << 16
    /// The longest fill: 31 days (a corrupt timestamp must not make one without bound).
    static let maxFillSeconds: Int64 = 31 * 86_400

    private mutating func record(type: UInt8, second: Int64, payload: UnsafeRawBufferPointer, into samples: inout [Sample], lines: inout [Int]) throws {
        lastRecordSecond = second
        switch type {
        case Self.parameters:
            parameters(payload)
        case Self.event where payload.count == 1 && payload[0] == 0x08:
            asleep = true
        case Self.event where payload.count == 1 && payload[0] == 0x09:
            if asleep { fill(upTo: second) }
            asleep = false
        case Self.activity where payload.count > 1, Self.activity2 where payload.count > 1:
            guard let s = scale ?? fallbackScale else {
                throw RecordingError(file: file, byteOffset: offset, problem: "record \(recordNumber): samples, but no acceleration scale is known (none in info.txt, no PARAMETERS record, an unknown serial number)")
            }
            asleep = false
            let count = type == Self.activity ? payload.count * 2 / 9 : payload.count / 6
            let base = second.multipliedReportingOverflow(by: 1_000_000_000).partialValue - offsetNs
            let factor = Self.standardGravity / s
            for k in 0..<count {
                let raw = type == Self.activity ? GT3XPacked12.sample(payload, k) : Self.s16(payload, k)
                samples.append(sample(raw, at: base + Self.offsetNs(k, rate: rate), factor: factor))
                lastRaw = raw
            }
            if count > 0 { lastSecond = second }
            lines.append(contentsOf: repeatElement(recordNumber, count: count))
        default:
            break
        }
    }

    /// Starts filling seconds `lastSecond + 1 ..< end` with the last sample, `rate` times each.
    private mutating func fill(upTo end: Int64) {
        guard let last = lastSecond, lastRaw != nil, end > last + 1 else { return }
        fillEnd = min(end, last + 1 + Self.maxFillSeconds)
    }

    private func sample(_ raw: (Int16, Int16, Int16), at t: Int64, factor: Double) -> Sample {
        Sample(timestamp: t, accel: Vector3(Double(raw.0) * factor, Double(raw.1) * factor, Double(raw.2) * factor))
    }

    /// `k / rate` s in ns, to the nearest ns.
    static func offsetNs(_ k: Int, rate: Int) -> Int64 { Int64((k * 2_000_000_000 + rate) / (2 * rate)) }

    private static func s16(_ p: UnsafeRawBufferPointer, _ k: Int) -> (Int16, Int16, Int16) {
        func v(_ j: Int) -> Int16 { Int16(bitPattern: UInt16(p[j]) | UInt16(p[j + 1]) << 8) }
        return (v(6 * k), v(6 * k + 2), v(6 * k + 4))
    }

    /// PARAMETERS: 8-byte items, u16 address space, u16 id, u32 value (all LE).
    private mutating func parameters(_ p: UnsafeRawBufferPointer) {
        for j in stride(from: 0, to: p.count - 7, by: 8) {
            let space = UInt16(p[j]) | UInt16(p[j + 1]) << 8
            let id = UInt16(p[j + 2]) | UInt16(p[j + 3]) << 8
            let value = UInt32(p[j + 4]) | UInt32(p[j + 5]) << 8 | UInt32(p[j + 6]) << 16 | UInt32(p[j + 7]) << 24
            if space == 0 && id == 55 && scale == nil, let v = Self.sspFloat(value), v >= 1, v <= 1_000_000 { scale = v }
            if space == 1 && id == 2 { idleSleepModeEnabled = value & 4 != 0 }
        }
    }

    /// ActiGraph's parameter float (Parameters.md): a 24-bit two's-complement fraction (2^23 is 1)
    /// and an 8-bit two's-complement exponent of 2; nil for the "too big" codes.
    static func sspFloat(_ value: UInt32) -> Double? {
        if value == 0x007F_FFFF || value == 0x0080_0000 { return nil }
        let exponent = Int(Int8(bitPattern: UInt8(value >> 24)))
        var fraction = Int32(bitPattern: value & 0x00FF_FFFF)
        if fraction & 0x0080_0000 != 0 { fraction |= Int32(bitPattern: 0xFF00_0000) }
        return Double(fraction) / 8_388_608 * Double(sign: .plus, exponent: exponent, significand: 1)
    }
}
