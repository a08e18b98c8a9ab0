import MotionCore
import MotionIIO

/// What happened over one span of a session (one recording, or the whole session): samples,
/// losses, pauses, steps and the wake-ups and CPU time they cost. Counts are differences of the
/// capture's cumulative figures (``MotionIIO/CaptureMachine/Progress``) between the span's start
/// and its end, so spans add up to the session. Pure value.
public struct SessionTally: Hashable, Sendable {
    /// Timestamp of the span's first sample (ns, the recording's clock), if any.
    public var firstSample: Int64?
    /// Timestamp of its last sample.
    public var lastSample: Int64?
    /// Samples delivered.
    public var samples = 0
    /// Batches delivered (wake-ups that produced data).
    public var batches = 0
    /// Samples lost in timestamp gaps (a kernel buffer overflow).
    public var lostSamples = 0
    /// Gaps found.
    public var gaps = 0
    /// Pauses begun (SIGUSR1).
    public var pauses = 0
    /// Time spent paused, ns (monotonic; a pause still open counts until the span's end).
    public var pausedNanoseconds: Int64 = 0
    /// Times the device was lost.
    public var deviceLosses = 0
    /// Time without the device, ns (from its loss to its return or the span's end).
    public var lostNanoseconds: Int64 = 0
    /// Steps counted (live, by the standard analysis), nil when nothing was analysed.
    public var steps: Int?
    /// Device deliveries: FIFO bursts the reader drained with a hardware FIFO; one per sample
    /// without one (each sample is an interrupt).
    public var deviceDeliveries = 0
    /// Returns to userspace from waiting.
    public var userspaceReturns = 0
    /// Scheduler wake-ups of the reader (voluntary context switches), nil when not measured.
    public var schedulerWakeups: Int64?
    /// The reader's CPU time (user + system), ns, nil when not measured.
    public var cpuNanoseconds: Int64?
    /// Monotonic time the span covers, ns (pauses and losses included).
    public var elapsedNanoseconds: Int64 = 0
    /// Event lines written (pauses, resumptions, losses, reconnections).
    public var events = 0
    /// Bytes of the recording (0 without one).
    public var bytes: Int64 = 0

    /// Creates an empty tally.
    public init() {}

    /// Span of the samples, s (0 under two samples).
    public var sampleSpanSeconds: Double {
        guard let a = firstSample, let b = lastSample else { return 0 }
        return Double(b - a) / 1e9
    }

    /// `count` per hour of ``elapsedNanoseconds``; nil without elapsed time.
    public func perHour(_ count: Double?) -> Double? {
        guard let count, elapsedNanoseconds > 0 else { return nil }
        return count * 3.6e12 / Double(elapsedNanoseconds)
    }
}

/// A snapshot of the session's cumulative figures, taken when a span starts, so that the span's
/// tally is the difference with the figures at its end.
struct TallyBaseline: Hashable, Sendable {
    var progress: CaptureMachine.Progress
    var deliveries: Int
    var steps: Int?
    var monotonic: Int64
    var pauses: Int
    var pausedNanoseconds: Int64
    var losses: Int
    var lostNanoseconds: Int64
}
