/// What to capture and when to stop (the command line's choices, for ``IIOCapture``).
public struct CaptureOptions: Sendable {
    /// Requested rate, Hz (nil keeps the device's).
    public var rate: Double?
    /// Batching.
    public var batching: CapturePlan.Batching
    /// Stop after this many seconds of streaming (monotonic clock).
    public var duration: Double?
    /// Stop after this many samples.
    public var sampleLimit: Int?
    /// Respread bunched FIFO-burst timestamps (on by default).
    public var repairTimestamps: Bool
    /// Use the hardware FIFO where the device has one (on by default).
    public var hardwareFIFO: Bool = true
    /// Timed waiting for per-sample devices batched by the kernel watermark (batch >= 2, local
    /// context): sleep until each batch is due instead of polling the buffer, which the kernel
    /// wakes on every sample. On by default; off: `motionbatch capture --wait buffer`.
    public var timedWait: Bool = true
    /// Full scales to select (`--range`).
    public var range = CaptureRange()
    /// SIGUSR1 pauses (buffers disabled, sensor idle), SIGUSR2 resumes (local contexts).
    public var pauseSignals = false
    /// For tests: after `after` seconds, stop reading for `duration` seconds once (to overflow the kernel buffer).
    public var stall: CaptureMachine.Settings.Stall?

    /// Creates options.
    public init(rate: Double? = nil, batching: CapturePlan.Batching = .none, duration: Double? = nil, sampleLimit: Int? = nil,
                repairTimestamps: Bool = true, stall: CaptureMachine.Settings.Stall? = nil) {
        self.rate = rate
        self.batching = batching
        self.duration = duration
        self.sampleLimit = sampleLimit
        self.repairTimestamps = repairTimestamps
        self.stall = stall
    }
}
