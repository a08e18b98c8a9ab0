import MotionCore

/// Where captured batches go (e.g. a recording writer and the live analysis). The driver
/// (``IIOCapture``) calls it once per delivered batch; `close` is called once, on every path.
public protocol CaptureSink {
    /// Called once the devices are configured and streaming, before the first batch, with the
    /// configuration actually applied (rate read back, timestamp clock, FIFO timeout).
    mutating func begin(_ devices: [CaptureStatistics.Device]) throws
    /// Receives one batch (one wake-up's worth of samples).
    mutating func write(_ batch: SampleBatch) throws
    /// A moment of the stream (paused, resumed, device lost or back); the default ignores it.
    mutating func mark(_ mark: CaptureMachine.Mark)
    /// Flushes and syncs; called once at the end.
    mutating func close() throws
}

extension CaptureSink {
    /// Ignores marks.
    public mutating func mark(_ mark: CaptureMachine.Mark) {}
}
