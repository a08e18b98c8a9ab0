/// How the virtual hub behaves, independent of the recording.
public struct HubConfiguration: Sendable, Equatable {
    /// Restart the recording from its first sample when it ends.
    public var loop: Bool
    /// Send a 64-bit hub timestamp with every sample (IIO timestamps then follow the sample
    /// schedule); otherwise the kernel stamps samples when they arrive.
    public var hubTimestamps: Bool
    /// Samples the hub FIFO holds per sensor while the report latency delays delivery.
    public var fifoCapacity: Int
    /// What a full FIFO drops.
    public var overflow: OverflowPolicy

    /// Creates a configuration.
    public init(loop: Bool = false, hubTimestamps: Bool = true, fifoCapacity: Int = 1024, overflow: OverflowPolicy = .dropOldest) {
        self.loop = loop
        self.hubTimestamps = hubTimestamps
        self.fifoCapacity = fifoCapacity
        self.overflow = overflow
    }
}
