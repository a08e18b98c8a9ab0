extension CaptureStatistics.Device {
    /// A device that is not there: a recording replayed as a board would deliver it (`replay
    /// --publish`), batching `batchSamples` at `rateHz` in a hardware FIFO with `latencySeconds`,
    /// so that the session counts one device delivery per batch, as for a board with a FIFO.
    public static func simulated(name: String, rateHz: Double?, batchSamples: Int, latencySeconds: Double) -> CaptureStatistics.Device {
        let plan = CapturePlan(requestedRate: rateHz, rate: rateHz, batchSamples: max(1, batchSamples), latencySeconds: latencySeconds,
                               hwfifoTimeout: latencySeconds, waitStrategy: .pollDrain, bufferCapacity: max(1, batchSamples), kernelWatermark: 1,
                               kernelBuffersCount: 4, contextTimeoutMs: 0, expectedBurst: max(1, batchSamples))
        return CaptureStatistics.Device(id: "simulated", name: name, plan: plan, actualRate: rateHz, hwfifoTimeout: latencySeconds,
                                        watermark: 1, timestampClock: "recording", hasTimestamp: true)
    }
}
