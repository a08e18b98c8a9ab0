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
/// Samples are written straight into the caller's array (``DeviceSampleWriter``); a record that
/// does not fit is finished at the next call.
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
    /// The second (exclusive) up to which a fill is pending, and the samples of the second
    /// after ``lastSecond`` already filled.
    private var fillEnd: Int64?
    private var fillNext = 0
    private var lastRecordSecond: Int64?
    private var stray = false
    /// An activity record not all written (the caller's room ran out): its payload copied here,
    /// its samples from ``Partial/next`` on still to write.
    private var partial: Partial?
    private var partialBytes: [UInt8] = []

    private struct Partial {
        var packed: Bool
        var baseNs: Int64
        var count: Int
        var next: Int
        var record: Int
    }

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

    /// Decodes the whole records at the start of `bytes` into `out`, until it has no room.
    /// `atEnd`: no more bytes follow (a partial record is then a defect). It stops after a
    /// record that starts a fill (``filling``) or that did not fit (``hasPartial``).
    /// - Returns: the bytes consumed (the rest, a partial record, must be offered again with more).
    /// - Throws: ``RecordingError`` for samples before any scale is known.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, atEnd: Bool, into out: inout DeviceSampleWriter) throws -> Int {
        var i = 0
        let n = bytes.count
        while i < n && out.room > 0 && !out.failed {
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
            if Self.xor(UnsafeRawBufferPointer(rebasing: bytes[i..<(i + total)])) != 0xFF {
                tally.add(.badChecksum, file: file, line: recordNumber, message: "a log record whose checksum does not match: skipped")
            } else {
                let type = bytes[i + 1]
                let second = Int64(UInt32(bytes[i + 2]) | UInt32(bytes[i + 3]) << 8 | UInt32(bytes[i + 4]) << 16 | UInt32(bytes[i + 5]) << 24)
                let payload = UnsafeRawBufferPointer(rebasing: bytes[(i + Self.headerSize)..<(i + Self.headerSize + size)])
                try record(type: type, second: second, payload: payload, into: &out)
            }
            i += total
            offset += total
            // A fill, or the rest of a record, is handed out before the records after it.
            if filling || partial != nil { return i }
        }
        if atEnd && i < n && out.room > 0 && !out.failed {
            recordNumber += 1
            tally.add(.truncatedBlock, file: file, line: recordNumber, message: "the file ends inside a log record (a download cut short): its \(n - i) bytes dropped")
            offset += n - i
            i = n
        }
        return i
    }

    /// The XOR of `b`'s bytes (a record with its checksum XORs to `FF`), eight at a time.
    static func xor(_ b: UnsafeRawBufferPointer) -> UInt8 {
        var x: UInt64 = 0
        var k = 0
        while k + 8 <= b.count {
            x ^= b.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            k += 8
        }
        x ^= x >> 32
        x ^= x >> 16
        x ^= x >> 8
        var r = UInt8(truncatingIfNeeded: x)
        while k < b.count {
            r ^= b[k]
            k += 1
        }
        return r
    }

    /// At the end of the file: starts the fill of an idle sleep mode still active (then
    /// ``filling``: ``continueFill`` hands it out).
    mutating func finish() {
        if asleep, let end = lastRecordSecond { fill(upTo: end) }
        asleep = false
    }

    /// Whether an idle sleep mode fill is being handed out (``continueFill`` until false).
    var filling: Bool { fillEnd != nil }
    /// Whether a record's samples are still to be written (``continuePartial`` until false).
    var hasPartial: Bool { partial != nil }

    /// Writes the next samples of the pending fill, as many as `out` has room for.
    mutating func continueFill(into out: inout DeviceSampleWriter) {
        guard let end = fillEnd, lastSecond != nil, let raw = lastRaw, let s = scale ?? fallbackScale else { fillEnd = nil; return }
        let factor = Self.standardGravity / s
        let sample = Sample(timestamp: 0, accel: Vector3(Double(raw.0) * factor, Double(raw.1) * factor, Double(raw.2) * factor))
        while out.room > 0 && !out.failed, let last = lastSecond, last + 1 < end {
            let second = last + 1
            let first = fillNext
            let n = min(rate - first, out.room)
            let base = second * 1_000_000_000 - offsetNs
            var offsets = EvenNanoseconds(rate: rate, from: first)
            out.putRun(n, line: recordNumber) { _ in
                var s = sample
                s.timestamp = base + offsets.next()
                return s
            }
            filledSamples += n
            fillNext = first + n
            if fillNext == rate {
                fillNext = 0
                lastSecond = second
            }
        }
        if let last = lastSecond, last + 1 >= end { fillEnd = nil }
    }

    /// Writes the rest of the record that did not fit, as much as `out` has room for.
    mutating func continuePartial(into out: inout DeviceSampleWriter) {
        guard var p = partial else { return }
        partialBytes.withUnsafeBytes { b in p.next += writeActivity(b, packed: p.packed, baseNs: p.baseNs, from: p.next, count: p.count, record: p.record, into: &out) }
        partial = p.next < p.count ? p : nil
    }

    /// The longest fill: 31 days (a corrupt timestamp must not make one without bound).
    static let maxFillSeconds: Int64 = 31 * 86_400

    private mutating func record(type: UInt8, second: Int64, payload: UnsafeRawBufferPointer, into out: inout DeviceSampleWriter) throws {
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
            guard scale ?? fallbackScale != nil else {
                throw RecordingError(file: file, byteOffset: offset, problem: "record \(recordNumber): samples, but no acceleration scale is known (none in info.txt, no PARAMETERS record, an unknown serial number)")
            }
            asleep = false
            let packed = type == Self.activity
            let count = packed ? payload.count * 2 / 9 : payload.count / 6
            guard count > 0 else { return }
            let baseNs = second.multipliedReportingOverflow(by: 1_000_000_000).partialValue - offsetNs
            lastSecond = second
            lastRaw = packed ? GT3XPacked12.sample(payload, count - 1) : Self.s16(payload, count - 1)
            let written = writeActivity(payload, packed: packed, baseNs: baseNs, from: 0, count: count, record: recordNumber, into: &out)
            if written < count {
                partialBytes.removeAll(keepingCapacity: true)
                partialBytes.append(contentsOf: payload)
                partial = Partial(packed: packed, baseNs: baseNs, count: count, next: written, record: recordNumber)
            }
        default:
            break
        }
    }

    /// Writes samples `from ..< count` of an activity payload (as many as `out` has room for):
    /// sample `k` at `baseNs + k / rate` s. Returns how many it offered.
    private func writeActivity(_ payload: UnsafeRawBufferPointer, packed: Bool, baseNs: Int64, from first: Int, count: Int, record: Int,
                               into out: inout DeviceSampleWriter) -> Int {
        let n = min(count - first, out.room)
        let factor = Self.standardGravity / (scale ?? fallbackScale!)
        var offsets = EvenNanoseconds(rate: rate, from: first)
        if packed {
            out.putRun(n, line: record) { j in Self.sample(GT3XPacked12.sample(payload, first + j), at: baseNs + offsets.next(), factor: factor) }
        } else {
            out.putRun(n, line: record) { j in Self.sample(Self.s16(payload, first + j), at: baseNs + offsets.next(), factor: factor) }
        }
        return n
    }

    /// Starts filling seconds `lastSecond + 1 ..< end` with the last sample, `rate` times each.
    private mutating func fill(upTo end: Int64) {
        guard let last = lastSecond, lastRaw != nil, end > last + 1 else { return }
        fillEnd = min(end, last + 1 + Self.maxFillSeconds)
        fillNext = 0
    }

    @inline(__always)
    static func sample(_ raw: (Int16, Int16, Int16), at t: Int64, factor: Double) -> Sample {
        Sample(timestamp: t, accel: Vector3(Double(raw.0) * factor, Double(raw.1) * factor, Double(raw.2) * factor), gyro: Vector3(0, 0, 0))
    }

    /// `k / rate` s in ns, to the nearest ns.
    static func offsetNs(_ k: Int, rate: Int) -> Int64 { Int64((k * 2_000_000_000 + rate) / (2 * rate)) }

    @inline(__always)
    private static func s16(_ p: UnsafeRawBufferPointer, _ k: Int) -> (Int16, Int16, Int16) {
        func v(_ j: Int) -> Int16 { Int16(littleEndian: p.loadUnaligned(fromByteOffset: j, as: Int16.self)) }
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
