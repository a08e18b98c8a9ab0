/// The 512-byte data blocks of an Axivity `.cwa` file (`Docs/ax3/cwa.h`, `OM_READER_DATA_PACKET`),
/// decoded into samples: a pure state machine, fed one block at a time (no I/O). A block's
/// samples are written once the next block's anchor is known, straight into the caller's array
/// (``DeviceSampleWriter``), as many as it has room for.
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

    /// A data block that held together: where its time is and how its samples decode.
    private struct Block {
        var anchorNs: Int64
        var anchorIndex: Double
        var sequence: UInt32
        var rate: Double
        var block: Int
        var count: Int
        /// 0: packed (3 × 10 bits and an exponent), 3: three s16 axes, 6: gyroscope then accelerometer, s16.
        var channels: Int
        /// Accelerometer and gyroscope units per count.
        var accelFactor: Double
        var gyroFactor: Double
    }
    /// The last block, waiting for the next one's anchor; its bytes in ``heldBytes``.
    private var held: Block?
    /// The block being written (its spacing known): its bytes in ``readyBytes``, its samples
    /// from ``readyNext`` on still to write, ``readyStep`` ns apart.
    private var ready: Block?
    private var readyNext = 0
    private var readyStep = 0.0
    private var heldBytes = [UInt8](repeating: 0, count: CWABlockDecoder.blockSize)
    private var readyBytes = [UInt8](repeating: 0, count: CWABlockDecoder.blockSize)

    static let blockSize = 512
    static let g = AccelerationUnit.standardGravityValue
    static let radiansPerDegree = Double.pi / 180

    init(file: String, offsetNs: Int64, headerGyroRangeDPS: Double?) {
        self.file = file
        self.offsetNs = offsetNs
        self.headerGyroRangeDPS = headerGyroRangeDPS
    }

    /// Whether a block's samples are waiting to be written (``write(into:)``); only then may
    /// ``accept(block:)`` not be called.
    var hasReady: Bool { ready != nil }

    /// Reads one 512-byte block: a defect is counted and the block skipped; else it is kept
    /// until the next one's anchor is known, and the block kept before it becomes ready to write.
    mutating func accept(block b: UnsafeRawBufferPointer) {
        precondition(b.count == Self.blockSize && ready == nil)
        blockNumber += 1
        func u16(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
        func u32(_ o: Int) -> UInt32 { UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24 }
        guard b[0] == 0x41, b[1] == 0x58, u16(2) == 508 else {
            tally.add(.truncatedBlock, file: file, line: blockNumber, message: "a block that is not a data block ('AX', 508 bytes): skipped")
            return
        }
        // The 16-bit words summed four at a time: words 0 and 2 of each 8 bytes in the two 32-bit
        // lanes of `even`, 1 and 3 in those of `odd` (64 words a lane: no carry leaves it).
        var even: UInt64 = 0, odd: UInt64 = 0
        for k in stride(from: 0, to: Self.blockSize, by: 8) {
            let v = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            even &+= v & 0x0000_FFFF_0000_FFFF
            odd &+= v >> 16 & 0x0000_FFFF_0000_FFFF
        }
        guard UInt16(truncatingIfNeeded: even &+ even >> 32 &+ odd &+ odd >> 32) == 0 else {
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
        // The anchor: the timestamp (plus its fraction) holds at sample `offset`.
        let fractionWord = u16(4)
        let fraction = fractionWord & 0x8000 != 0 ? (fractionWord & 0x7FFF) << 1 : 0
        let offset = Double(Int16(truncatingIfNeeded: u16(26))) + Double((fraction * Int(rate)) >> 16)
        let anchorNs = local * 1_000_000_000 + Int64((fraction * 1_000_000_000 + 32_768) >> 16) - offsetNs
        // Units.
        let light = u16(18)
        var next = Block(anchorNs: anchorNs, anchorIndex: offset, sequence: u32(10), rate: rate, block: blockNumber, count: count,
                         channels: packing == 0 ? 0 : channels, accelFactor: Self.g / 256, gyroFactor: 0)
        if packing != 0 {
            next.accelFactor = Self.g / Double(1 << (8 + (light >> 13)))
            let gyroN = (light >> 10) & 7
            let range = gyroN != 0 ? 4000 / Double(1 << gyroN) : headerGyroRangeDPS ?? 2000
            next.gyroFactor = range / 32768 * Self.radiansPerDegree
        }
        // The held block is now spaced; this one's bytes take its place.
        readyBytes.withUnsafeMutableBytes { $0.copyMemory(from: b) }
        if let h = held {
            readyStep = step(h, next: next)
            ready = h
            readyNext = 0
        }
        held = next
        swap(&heldBytes, &readyBytes)
    }

    /// At the end of the file: the last block is ready, at its nominal rate.
    mutating func finish() {
        precondition(ready == nil)
        guard let h = held else { return }
        readyStep = step(h, next: nil)
        ready = h
        readyNext = 0
        held = nil
        swap(&heldBytes, &readyBytes)
    }

    /// The spacing of `h`'s samples: the time to `next`'s anchor when the two agree with the
    /// nominal rate within 10 % (else nominal, and `next` is counted as a time jump).
    private mutating func step(_ h: Block, next: Block?) -> Double {
        let nominal = 1e9 / h.rate
        if let n = next, n.sequence == h.sequence &+ 1 {
            let between = Double(h.count) - h.anchorIndex + n.anchorIndex
            let measured = between > 0 ? Double(n.anchorNs - h.anchorNs) / between : 0
            if abs(measured - nominal) <= 0.1 * nominal { return measured }
            tally.add(.timeJump, file: file, line: n.block,
                      message: "a data block whose time is not where the previous block's end puts it (a gap or the clock set): kept at its own time")
        }
        return nominal
    }

    /// Writes the ready block's samples, as many as `out` has room for.
    mutating func write(into out: inout DeviceSampleWriter) {
        guard let r = ready else { return }
        let first = readyNext
        let n = min(r.count - first, out.room)
        let step = readyStep, anchorNs = r.anchorNs, anchorIndex = r.anchorIndex
        let f = r.accelFactor, gf = r.gyroFactor
        // Sample i's time, to the nearest ns (half away from zero), without a libm call.
        @inline(__always) func time(_ i: Int) -> Int64 {
            let offset = (Double(i) - anchorIndex) * step
            return anchorNs + Int64(offset < 0 ? offset - 0.5 : offset + 0.5)
        }
        readyBytes.withUnsafeBytes { b in
            switch r.channels {
            case 0:
                out.putRun(n, line: r.block) { j in
                    let i = first + j
                    let v = UInt32(littleEndian: b.loadUnaligned(fromByteOffset: 30 + 4 * i, as: UInt32.self))
                    let e = Int32(truncatingIfNeeded: v >> 30)
                    @inline(__always) func axis(_ shift: UInt32) -> Double { Double((Int32(bitPattern: (v &>> shift) &<< 22) &>> 22) &<< e) * f }
                    return Sample(timestamp: time(i), accel: Vector3(axis(0), axis(10), axis(20)), gyro: Vector3(0, 0, 0))
                }
            case 3:
                out.putRun(n, line: r.block) { j in
                    let i = first + j
                    @inline(__always) func s(_ k: Int) -> Double { Double(Int16(littleEndian: b.loadUnaligned(fromByteOffset: 30 + 6 * i + 2 * k, as: Int16.self))) }
                    return Sample(timestamp: time(i), accel: Vector3(s(0) * f, s(1) * f, s(2) * f), gyro: Vector3(0, 0, 0))
                }
            default:
                out.putRun(n, line: r.block) { j in
                    let i = first + j
                    @inline(__always) func s(_ k: Int) -> Double { Double(Int16(littleEndian: b.loadUnaligned(fromByteOffset: 30 + 12 * i + 2 * k, as: Int16.self))) }
                    return Sample(timestamp: time(i), accel: Vector3(s(3) * f, s(4) * f, s(5) * f), gyro: Vector3(s(0) * gf, s(1) * gf, s(2) * gf))
                }
            }
        }
        readyNext = first + n
        if readyNext == r.count { ready = nil }
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
