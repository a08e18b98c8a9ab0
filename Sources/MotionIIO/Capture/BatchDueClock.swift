/// When a batch of a per-sample device is due, for timed waiting (see ``IIOCapture``): the reader
/// sleeps until then instead of waiting on the buffer, whose poll wakes it on every sample.
/// Pure: times are monotonic nanoseconds passed in; no clock is read here.
///
/// The due time is a latency bound, as Android's maximum report latency is: a batch is handed
/// over when it is due, full or not, so the reader wakes once per `N` periods whatever the
/// producer does (a late producer's samples come with the next batch; each such batch is
/// counted in ``shortBatches``).
/// - The first batch is due `N` periods plus half a period after the start (the half period
///   keeps the wake-up clear of the N-th sample's arrival).
/// - Batches are due every `N` periods from there, on a fixed grid: a late wake-up does not
///   move the next one. After a stall longer than a batch, the grid restarts `N` periods after
///   the wake-up that ended it.
/// - A drain before the batch is due (a pause, the stop) that completes `N` samples hands them
///   over early; the schedule stays.
public struct BatchDueClock: Hashable, Sendable {
    /// Samples per batch (N).
    public let batchSamples: Int
    /// Sampling period, ns.
    public let period: Int64
    /// Monotonic time (ns) at which the batch is due.
    public private(set) var due: Int64
    /// Samples read and held for the batch being filled.
    public private(set) var held = 0
    /// Batches handed over with fewer than `N` samples (the producer was late).
    public private(set) var shortBatches = 0

    /// A clock for batches of `batchSamples` at `period` ns, streaming since `start` (ns).
    /// - Precondition: `batchSamples >= 1`, `period > 0`.
    public init(batchSamples: Int, period: Int64, start: Int64) {
        precondition(batchSamples >= 1 && period > 0)
        self.batchSamples = batchSamples
        self.period = period
        self.due = start + Int64(batchSamples) * period + period / 2
    }

    /// The batch's length in time, ns (`N` periods).
    public var interval: Int64 { Int64(batchSamples) * period }

    /// Records a drain at `now` that read `count` samples.
    /// - Returns: whether the held samples are now handed over as a batch (`held` restarts at
    ///   0): when they make `N`, or when the batch is due.
    public mutating func drained(_ count: Int, at now: Int64) -> Bool {
        held += count
        if now >= due {
            if held < batchSamples { shortBatches += 1 }
            held = 0
            due += interval
            if due <= now { due = now + interval }
            return true
        }
        guard held >= batchSamples else { return false }
        held = 0
        return true
    }

    /// Milliseconds to wait at `now` for `poll` (rounded up: never wakes before `due`; 0 when due).
    public func waitMilliseconds(at now: Int64) -> Int32 {
        due <= now ? 0 : Int32(clamping: (due - now + 999_999) / 1_000_000)
    }
}
