/// The three levels of wake-up for a stretch of samples (see docs/wake-cost.md and
/// shared/notes/wakeups-measured.md).
public struct WakeCounts: Hashable, Sendable {
    /// Samples delivered.
    public var samples: Int
    /// Device deliveries: interrupts / bursts that take the CPU out of idle.
    public var deviceDeliveries: Int
    /// Scheduler wake-ups of the reading task (voluntary context switches).
    public var schedulerWakeups: Int
    /// Returns from poll/read into userspace.
    public var userspaceReturns: Int

    /// Creates counts.
    public init(samples: Int, deviceDeliveries: Int, schedulerWakeups: Int, userspaceReturns: Int) {
        self.samples = samples
        self.deviceDeliveries = deviceDeliveries
        self.schedulerWakeups = schedulerWakeups
        self.userspaceReturns = userspaceReturns
    }

    /// Scheduler wake-ups that go back to sleep without returning to userspace.
    public var spuriousWakeups: Int { max(0, schedulerWakeups - userspaceReturns) }

    /// The counts a configuration produces for `samples` samples of a steady stream, batch `B`:
    /// - per-sample (B = 1): every level once per sample;
    /// - hardware FIFO: ⌈N / B⌉ bursts, each one scheduler wake-up and one return (the reader
    ///   drains without blocking);
    /// - software watermark: N device deliveries and N scheduler wake-ups (the kernel wakes the
    ///   poll waiter on every pushed sample), ⌈N / B⌉ returns;
    /// - timed: N device deliveries, ⌈N / B⌉ scheduler wake-ups and returns (the reader sleeps
    ///   on a timer that no sample interrupts, then drains the batch without blocking).
    ///
    /// - Complexity: O(1).
    public static func predicted(samples: Int, configuration c: WakeConfiguration) -> WakeCounts {
        let n = max(0, samples)
        let b = c.batchSamples
        let batches = (n + b - 1) / b
        if b == 1 { return WakeCounts(samples: n, deviceDeliveries: n, schedulerWakeups: n, userspaceReturns: n) }
        switch c.buffering {
        case .hardware: return WakeCounts(samples: n, deviceDeliveries: batches, schedulerWakeups: batches, userspaceReturns: batches)
        case .software: return WakeCounts(samples: n, deviceDeliveries: n, schedulerWakeups: n, userspaceReturns: batches)
        case .timed: return WakeCounts(samples: n, deviceDeliveries: n, schedulerWakeups: batches, userspaceReturns: batches)
        }
    }

    /// CPU-active seconds these counts cost on `board`:
    /// deliveries × device time + spurious wake-ups × scheduler time + returns × return time
    /// + samples × per-sample time.
    public func cpuActiveSeconds(on board: BoardProfile) -> Double {
        Double(deviceDeliveries) * board.deviceDeliveryS
            + Double(spuriousWakeups) * board.schedulerWakeupS
            + Double(userspaceReturns) * board.userspaceReturnS
            + Double(samples) * board.perSampleS
    }

    /// The part of ``cpuActiveSeconds(on:)`` charged to the reading process (what
    /// `/proc/PID/stat` utime+stime shows): everything but the device-delivery interrupt time.
    public func processCPUSeconds(on board: BoardProfile) -> Double {
        cpuActiveSeconds(on: board) - Double(deviceDeliveries) * board.deviceDeliveryS
    }
}
