/// The 512-byte data blocks of an Axivity `.cwa` file (`Docs/ax3/cwa.h`, `OM_READER_DATA_PACKET`),
/// decoded into samples: a pure state machine, fed one block at a time (no I/O).
///
/// A block is `AX`, 508, the device-fractional word (top bit set: a 15-bit fraction of a second
/// for the timestamp), the session and sequence ids, the packed RTC timestamp
/// (`YYYYYYMM MMDDDDDh hhhhmmmm mmssssss`, year from 2000, the device's local time), the light
/// word (top 3 bits: the unpacked accelerometer scale 1/2^(8+n) g; next 3: the gyroscope range
/// 4000/2^n dps), the rate code (3200/2^(15 − low nibble) Hz), axes and packing (`0x30` three
/// axes of 16 bits, `0x60` gyroscope then accelerometer, 16 bits each, `0x00` three 10-bit values
/// and a 2-bit exponent in 32 bits, 1/256 g), the timestamp offset (the sample index at which the
/// timestamp holds), the sample count, 480 bytes of samples, and a checksum (the 16-bit sum of
/// the block's words is zero).
///
/// **Time**: with a fraction `f` (16 bits: the 15 stored, shifted left once) the block's time is
/// `timestamp + f / 65536` s at sample `timestampOffset + f × rate / 65536` (the device moved
/// the offset to match the whole second; this undoes it). Samples between two consecutive
/// blocks (sequence ids one apart) are spaced evenly between their two anchors, the rate as
/// measured by the device's clock; when those anchors disagree with the rate code by more than
/// 10 % the later block is a `time-jump` and the earlier one is spaced at the nominal rate (as
/// is the last block, and one after a skipped block).
///
/// **Defects**: a block whose checksum does not sum to zero is skipped (`bad-checksum`), one that
/// is not a data block, or whose count exceeds its space, is skipped (`truncated-block`); so is a
/// last partial block (the file cut short). The rest is still read.
struct CWABlockDecoder {
    let file: String
    /// Subtracted from the device's local time to give `timestamp_ns` (the UTC offset, in ns).
    let offsetNs: Int64
    /// The gyroscope range when a block does not give one (the header's).
    let headerGyroRangeDPS: Double?
    /// Data blocks offered so far (the "line" numbers of warnings).
    private(set) var blockNumber = 0
    private(set) var tally = RecordingWarningTally()
    /// Whether any block carried gyroscope samples.
    private(set) var sawGyro = false
    /// The rate code of the first decoded block.
    private(set) var firstRateCode: UInt8?

    /// A decoded block waiting for the next one's anchor.
    private struct Held {
        var anchorNs: Int64
        var anchorIndex: Double
        var sequence: UInt32
        var rate: Double
        var block: Int
        var count: Int
    }
    private var held: Held?
    /// The held block's samples (times not yet set), and the block being decoded: two buffers
    /// reused, swapped after each block.
    private var heldSamples: [Sample] = []
    private var current: [Sample] = []

    static let blockSize = 512
    static let g = AccelerationUnit.standardGravityValue
    static let radiansPerDegree = Double.pi / 180

    init(file: String, offsetNs: Int64, headerGyroRangeDPS: Double?) {
        self.file = file
        self.offsetNs = offsetNs
        self.headerGyroRangeDPS = headerGyroRangeDPS
    }

    /// Decodes one 512-byte block, appending the samples of the block before it (now that its
    /// successor's time is known) and each sample's block number.
    mutating func decode(block b: UnsafeRawBufferPointer, into samples: inout [Sample], lines: inout [Int]) {
        precondition(b.count == Self.blockSize)
        blockNumber += 1
        func u16(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
        func u32(_ o: Int) -> UInt32 { UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24 }
        guard b[0] == 0x41, b[1] == 0x58, u16(2) == 508 else {
            tally.add(.truncatedBlock, file: file, line: blockNumber, message: "a block that is not a data block ('AX', 508 bytes): skipped")
            return
        }
        var sum: UInt16 = 0
        for k in stride(from: 0, to: Self.blockSize, by: 2) { sum &+= UInt16(b[k]) | UInt16(b[k + 1]) << 8 }
        guard sum == 0 else {
            tally.add(.badChecksum, file: file, line: blockNumber, message: "a data block whose checksum does not match: skipped")
            return
        }
        let rateCode = b[24]
        let axesPacking = b[25]
        let channels = Int(axesPacking >> 4)
        let packing = axesPacking & 0x0F
        let count = u16(28)
        let bytesPerSample = packing == 0 ? 4 : 2 * channels
        guard (packing == 0 && channels == 3) || (packing == 2 && (channels == 3 || channels == 6)),
              count * bytesPerSample <= 480, let local = Self.localSeconds(u32(14)) else {
            tally.add(.truncatedBlock, file: file, line: blockNumber, message: "a data block whose axes, packing, sample count or timestamp do not hold together: skipped")
            return
        }
        let rate = CWAHeader.rateHz(code: rateCode)
        if firstRateCode == nil { firstRateCode = rateCode }
        // The anchor: the timestamp (plus its fraction) holds at sample `offset`.
        let fractionWord = u16(4)
        let fraction = fractionWord & 0x8000 != 0 ? (fractionWord & 0x7FFF) << 1 : 0
        let offset = Double(Int16(truncatingIfNeeded: u16(26))) + Double((fraction * Int(rate)) >> 16)
        let anchorNs = local * 1_000_000_000 + Int64((fraction * 1_000_000_000 + 32_768) >> 16) - offsetNs
        // Units.
        let light = u16(18)
        current.removeAll(keepingCapacity: true)
        if packing == 0 {
            let f = Self.g / 256
            for i in 0..<count {
                let v = u32(30 + 4 * i)
                let e = Int(v >> 30)
                func axis(_ shift: Int) -> Double { Double((Int32(bitPattern: (v >> UInt32(shift)) << 22) >> 22) << e) }
                current.append(Sample(timestamp: 0, accel: Vector3(axis(0) * f, axis(10) * f, axis(20) * f)))
            }
        } else {
            let f = Self.g / Double(1 << (8 + (light >> 13)))
            let gyroN = (light >> 10) & 7
            let range = gyroN != 0 ? 4000 / Double(1 << gyroN) : headerGyroRangeDPS ?? 2000
            let gf = range / 32768 * Self.radiansPerDegree
            for i in 0..<count {
                let o = 30 + i * bytesPerSample
                func s(_ k: Int) -> Double { Double(Int16(truncatingIfNeeded: u16(o + 2 * k))) }
                if channels == 6 {
                    current.append(Sample(timestamp: 0, accel: Vector3(s(3) * f, s(4) * f, s(5) * f), gyro: Vector3(s(0) * gf, s(1) * gf, s(2) * gf)))
                } else {
                    current.append(Sample(timestamp: 0, accel: Vector3(s(0) * f, s(1) * f, s(2) * f)))
                }
            }
            if channels == 6 { sawGyro = true }
        }
        let next = Held(anchorNs: anchorNs, anchorIndex: offset, sequence: u32(10), rate: rate, block: blockNumber, count: count)
        if let h = held { emit(h, next: next, into: &samples, lines: &lines) }
        held = next
        swap(&heldSamples, &current)
    }

    /// At the end of the file: the last block's samples, at its nominal rate.
    mutating func finish(into samples: inout [Sample], lines: inout [Int]) {
        if let h = held { emit(h, next: nil, into: &samples, lines: &lines) }
        held = nil
    }

    /// The samples of `h`, spaced by the time to `next`'s anchor when the two agree with the
    /// nominal rate within 10 % (else nominal, and `next` is counted as a time jump).
    private mutating func emit(_ h: Held, next: Held?, into samples: inout [Sample], lines: inout [Int]) {
        let nominal = 1e9 / h.rate
        var step = nominal
        if let n = next, n.sequence == h.sequence &+ 1 {
            let between = Double(h.count) - h.anchorIndex + n.anchorIndex
            let measured = between > 0 ? Double(n.anchorNs - h.anchorNs) / between : 0
            if abs(measured - nominal) <= 0.1 * nominal {
                step = measured
            } else {
                tally.add(.timeJump, file: file, line: n.block,
                          message: "a data block whose time is not where the previous block's end puts it (a gap or the clock set): kept at its own time")
            }
        }
        for i in 0..<h.count {
            var s = heldSamples[i]
            let offset = (Double(i) - h.anchorIndex) * step
            // To the nearest ns (half away from zero), without a libm call per sample.
            s.timestamp = h.anchorNs + Int64(offset < 0 ? offset - 0.5 : offset + 0.5)
            samples.append(s)
        }
        lines.append(contentsOf: repeatElement(h.block, count: h.count))
    }

    /// Seconds since the local epoch of a packed CWA timestamp, nil for 0 (unknown) or an
    /// impossible date.
    static func localSeconds(_ v: UInt32) -> Int64? {
        let year = Int(v >> 26 & 0x3F) + 2000, month = Int(v >> 22 & 0x0F), day = Int(v >> 17 & 0x1F)
        let hour = Int(v >> 12 & 0x1F), minute = Int(v >> 6 & 0x3F), second = Int(v & 0x3F)
        guard v != 0, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        return UTCTime.daysFromCivil(year, month, day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
