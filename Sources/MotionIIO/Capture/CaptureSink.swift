import MotionCore

/// Where captured batches go (e.g. a recording writer and the live analysis). The driver
/// (``IIOCapture``) calls it once per delivered batch; `close` is called once, on every path.
public protocol CaptureSink {
    /// Called once the devices are configured and streaming, before the first batch, with the
    /// configuration actually applied (rate read back, timestamp clock, FIFO timeout), and again
    /// after each reconnection (``CaptureMachine/Mark/deviceBack(at:lostAt:)`` follows).
    mutating func begin(_ devices: [CaptureStatistics.Device]) throws
    /// Receives one batch (one wake-up's worth of samples) and what was delivered so far.
    mutating func write(_ batch: SampleBatch, progress: CaptureMachine.Progress) throws
    /// A moment of the stream (paused, resumed, device lost or back); the default ignores it.
    mutating func mark(_ mark: CaptureMachine.Mark) throws
    /// Whether ``write(_:progress:)`` wants the process's counters (`/proc` and `getrusage`, read
    /// per batch by the driver: about a microsecond, skipped by default).
    var wantsProcessCounters: Bool { get }
    /// How many samples read at separate wake-ups it accepts as one batch (default 1: a batch per
    /// wake-up). A sink that records nothing and shows nothing per batch may say more: a per-sample
    /// capture then joins up to that many samples (or 250 ms of them) before running the machine
    /// and the sink once (``CaptureMachine/Settings/joinSamples``).
    var maxJoinedSamples: Int { get }
    /// How long a joined sample may wait before it is delivered (ns; default 250 ms, clamped to
    /// 1 ms ... 1 s by the driver): ``CaptureMachine/Settings/joinNanoseconds``. A sink that shows
    /// nothing per batch (no live view) may say up to a second: the process still wakes for every
    /// sample, and the work after the wake-ups runs once a second.
    var maxJoinNanoseconds: Int64 { get }
    /// Flushes and syncs; called once at the end, with why the capture stopped and its final
    /// figures (the process counters included when ``wantsProcessCounters``).
    mutating func close(_ reason: CaptureStopReason, progress: CaptureMachine.Progress) throws
}

extension CaptureSink {
    /// Ignores marks.
    public mutating func mark(_ mark: CaptureMachine.Mark) throws {}
    /// No counters.
    public var wantsProcessCounters: Bool { false }
    /// One wake-up's samples per batch.
    public var maxJoinedSamples: Int { 1 }
    /// 250 ms (what a live view redrawn four times a second needs).
    public var maxJoinNanoseconds: Int64 { 250_000_000 }
}
