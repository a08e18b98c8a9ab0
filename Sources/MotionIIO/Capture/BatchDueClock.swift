/// When a batch of a per-sample device is due, for timed waiting (see ``IIOCapture``): the reader
/// sleeps until then instead of waiting on the buffer, whose poll wakes it on every sample.
/// Pure: times are monotonic nanoseconds passed in; no clock is read here.
///
/// - The first batch is due `N` periods plus half a period after the start (the half period
///   keeps the wake-up clear of the N-th sample's arrival).
/// - After a drain that completes a batch (`>= N` samples held), the next is due `N` periods later.
/// - After a drain that leaves the batch short by `k` samples, it is due `k` periods later.
public struct BatchDueClock: Hashable, Sendable {
    /// Samples per batch (N).
    public let batchSamples: Int
    /// Sampling period, ns.
    public let period: Int64
    /// Monotonic time (ns) at which the batch is expected complete.
    public private(set) var due: Int64
    /// Samples read and held for the batch being filled.
    public private(set) var held = 0

    /// A clock for batches of `batchSamples` at `period` ns, streaming since `start` (ns).
    /// - Precondition: `batchSamples >= 1`, `period > 0`.
    public init(batchSamples: Int, period: Int64, start: Int64) {
        precondition(batchSamples >= 1 && period > 0)
        self.batchSamples = batchSamples
        self.period = period
        self.due = start + Int64(batchSamples) * period + period / 2
    }

    /// Records a drain at `now` that read `count` samples.
    /// - Returns: whether the held samples now make a batch (they are then handed over: `held`
    ///   restarts at 0).
    public mutating func drained(_ count: Int, at now: Int64) -> Bool {
        held += count
        let missing = batchSamples - held
        if missing <= 0 {
            held = 0
            due = now + Int64(batchSamples) * period
            return true
        }
        due = now + Int64(missing) * period
        return false
    }

    /// Milliseconds to wait at `now` for `poll` (rounded up: never wakes before `due`; 0 when due).
    public func waitMilliseconds(at now: Int64) -> Int32 {
        due <= now ? 0 : Int32(clamping: (due - now + 999_999) / 1_000_000)
    }
}
