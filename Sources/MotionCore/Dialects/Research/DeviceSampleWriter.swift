/// Where the binary device decoders (CWA, GT3X) put their samples: straight into the spare
/// capacity of the caller's array (no buffer of decoded samples in between, no copy), with the
/// defect rule of ``DeviceOrderedRows`` applied in the same pass: one comparison per sample.
///
/// A decoder writes at most ``room`` more samples (``putRun(_:line:_:)``); the samples the rule
/// drops do not use room. The memory is uninitialised past ``count``: only this type writes it,
/// and ``DeviceOrderedRows`` hands the array exactly ``count`` samples.
struct DeviceSampleWriter {
    private let base: UnsafeMutablePointer<Sample>
    /// The most samples it holds.
    let capacity: Int
    /// Samples written (kept) so far.
    private(set) var count = 0
    /// The rule's state, carried from call to call by ``DeviceOrderedRows``.
    var order: DeviceSampleOrder

    init(_ buffer: UnsafeMutableBufferPointer<Sample>, capacity: Int, order: DeviceSampleOrder) {
        precondition(capacity >= 0 && capacity <= buffer.count)
        base = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<Sample>.alignment)!
        self.capacity = capacity
        self.order = order
    }

    /// Samples that still fit.
    var room: Int { capacity - count }
    /// The rule refused the input (a step back beyond the tolerance): nothing more is written.
    var failed: Bool { order.failed }

    /// Offers the samples `make(0) ..< make(n)` of one record or block (`line`), in order; those
    /// not after the last kept one are the rule's (``DeviceSampleOrder/reject(_:line:)``).
    /// `n` must not exceed ``room``.
    @inline(__always)
    mutating func putRun(_ n: Int, line: Int, _ make: (Int) -> Sample) {
        putRun(n, lines: { _ in line }, make)
    }

    /// As ``putRun(_:line:_:)``, sample `j` from record or block `line(j)`. The state is kept in
    /// locals for the loop (no stores through `self` per sample).
    @inline(__always)
    mutating func putRun(_ n: Int, lines line: (Int) -> Int, _ make: (Int) -> Sample) {
        precondition(n <= room)
        let base = self.base
        var c = count
        var last = order.last
        // The last sample kept in this run (its line is the rule's ``DeviceSampleOrder/lastLine``).
        var kept = -1
        for j in 0..<n {
            let s = make(j)
            if s.timestamp > last {
                (base + c).initialize(to: s)
                c += 1
                last = s.timestamp
                kept = j
            } else {
                if kept >= 0 { order.lastLine = line(kept) }
                kept = -1
                order.last = last
                order.reject(s.timestamp, line: line(j))
                last = order.last
            }
        }
        if kept >= 0 { order.lastLine = line(kept) }
        order.last = last
        count = c
    }

    /// Grows `samples`' capacity, geometrically, so that `n` more fit.
    static func reserve(_ samples: inout [Sample], _ n: Int) {
        let needed = samples.count + n
        if samples.capacity < needed { samples.reserveCapacity(max(needed, 2 * samples.capacity)) }
    }
}

/// The defect rule's state (``DeviceOrderedRows``): the last kept time and its record or block,
/// the backward steps counted, and the error met.
struct DeviceSampleOrder {
    let file: String
    /// The last kept sample's time (`Int64.min` before any; `Int64.max` once failed, so that
    /// every later sample comes to ``reject(_:line:)``, which then ignores it).
    var last = Int64.min
    /// Its record or block.
    var lastLine = 0
    /// Backward steps (`backward-step`, one per sample dropped).
    var tally = RecordingWarningTally()
    /// The step back beyond ``TimestampDefectFilter/backwardTolerance`` that refused the input.
    private(set) var failure: RecordingError?
    /// Whether ``failure`` is set (a plain flag: checked once per record or block).
    private(set) var failed = false

    init(file: String) { self.file = file }

    /// A sample at `t`, not after ``last``: dropped and counted when it is at most
    /// ``TimestampDefectFilter/backwardTolerance`` earlier, else the input is refused.
    @inline(never)
    mutating func reject(_ t: Int64, line: Int) {
        guard !failed else { return }
        let back = last - t
        guard back <= TimestampDefectFilter.backwardTolerance else {
            failure = RecordingError(file: file, line: line, column: 1, columnName: DeviceOrderedRows.timeColumn,
                                     problem: "timestamp \(t) ns goes back \((Double(back) / 1e9).compactText) s (record or block \(lastLine) has \(last) ns): more than the 1 s tolerated (the clock set back, or recordings joined?)")
            failed = true
            last = .max
            return
        }
        tally.add(.backwardStep, file: file, line: line,
                  message: "sample dropped: its time is up to 1 s earlier than the sample before it (a record or block that steps back)")
    }
}

/// `round(k × 10⁹ / rate)` ns (halves up: `(k × 2·10⁹ + rate) / (2 rate)`) for k = k₀, k₀ + 1, …
/// without a division per step: the quotient and remainder advance by those of 2·10⁹.
struct EvenNanoseconds {
    private let divisor: Int64
    private let stepQuotient: Int64
    private let stepRemainder: Int64
    private var quotient: Int64
    private var remainder: Int64

    /// Starting at sample `k` of a second of `rate` samples.
    init(rate: Int, from k: Int) {
        precondition(rate > 0 && k >= 0)
        divisor = 2 * Int64(rate)
        stepQuotient = 2_000_000_000 / divisor
        stepRemainder = 2_000_000_000 % divisor
        let numerator = Int64(k) * 2_000_000_000 + Int64(rate)
        quotient = numerator / divisor
        remainder = numerator % divisor
    }

    /// The offset of the current sample, then moves to the next.
    @inline(__always)
    mutating func next() -> Int64 {
        let q = quotient
        quotient += stepQuotient
        remainder += stepRemainder
        if remainder >= divisor {
            remainder -= divisor
            quotient += 1
        }
        return q
    }
}
