/// What a real capture measured (filled by the IIO reader or the QEMU harness), the input of
/// measured mode and calibration. JSON schema in docs/wake-cost.md:
/// `{"samples": 1000, "userspace_returns": 10, "voluntary_ctxt_switches": 47,
///   "cpu_time_s": 0.02, "duration_s": 10, "device_deliveries": 10}`
/// (`device_deliveries` optional: the emulator's burst count, or null when unknown).
public struct CaptureStats: Hashable, Sendable {
    /// Samples read.
    public var samples: Int
    /// Returns from poll/read (refills) into userspace.
    public var userspaceReturns: Int
    /// Voluntary context switches of the reading task (`voluntary_ctxt_switches` in /proc/PID/status).
    public var voluntaryContextSwitches: Int
    /// CPU time of the reading task (utime + stime, s).
    public var cpuTimeS: Double
    /// Wall time covered (s).
    public var durationS: Double
    /// Device deliveries (interrupts / bursts), when known.
    public var deviceDeliveries: Int?

    /// Creates capture statistics.
    public init(samples: Int, userspaceReturns: Int, voluntaryContextSwitches: Int, cpuTimeS: Double, durationS: Double, deviceDeliveries: Int? = nil) {
        self.samples = samples
        self.userspaceReturns = userspaceReturns
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.cpuTimeS = cpuTimeS
        self.durationS = durationS
        self.deviceDeliveries = deviceDeliveries
    }

    /// Samples per second over the capture.
    public var rateHz: Double { Double(samples) / durationS }

    /// Keys a capture-stats file may contain.
    public static let jsonKeys: Set<String> = ["samples", "userspace_returns", "voluntary_ctxt_switches", "cpu_time_s", "duration_s", "device_deliveries"]

    /// Checks the values: counts not negative, samples and duration above zero, CPU time finite
    /// and not negative.
    public func validate(file: String) throws(WakeCostError) {
        guard samples > 0 else { throw WakeCostError(file: file, key: "samples", problem: "must be greater than 0, got \(samples)") }
        guard userspaceReturns >= 0 else { throw WakeCostError(file: file, key: "userspace_returns", problem: "must not be negative, got \(userspaceReturns)") }
        guard voluntaryContextSwitches >= 0 else { throw WakeCostError(file: file, key: "voluntary_ctxt_switches", problem: "must not be negative, got \(voluntaryContextSwitches)") }
        guard cpuTimeS.isFinite, cpuTimeS >= 0 else { throw WakeCostError(file: file, key: "cpu_time_s", problem: "must be a finite number >= 0, got \(cpuTimeS)") }
        guard durationS.isFinite, durationS > 0 else { throw WakeCostError(file: file, key: "duration_s", problem: "must be a finite number > 0, got \(durationS)") }
        if let d = deviceDeliveries, d < 0 { throw WakeCostError(file: file, key: "device_deliveries", problem: "must not be negative, got \(d)") }
    }

    /// Parses and validates capture statistics from the bytes of a JSON file.
    /// - Throws: ``WakeCostError`` naming the file and key.
    public static func parseJSON(_ data: [UInt8], file: String) throws(WakeCostError) -> CaptureStats {
        let o = try JSONObject.parse(data, file: file)
        for key in o.keys.sorted() where !jsonKeys.contains(key) {
            throw WakeCostError(file: file, key: key, problem: "unknown key (allowed: \(jsonKeys.sorted().joined(separator: ", ")))")
        }
        func count(_ key: String) throws(WakeCostError) -> Int {
            let d = try o.number(key, file: file)
            guard d == d.rounded(), abs(d) < 1e15 else { throw WakeCostError(file: file, key: key, problem: "must be a whole number, got \(d)") }
            return Int(d)
        }
        var deliveries: Int?
        if try o.optionalNumber("device_deliveries", file: file) != nil { deliveries = try count("device_deliveries") }
        let stats = CaptureStats(
            samples: try count("samples"), userspaceReturns: try count("userspace_returns"),
            voluntaryContextSwitches: try count("voluntary_ctxt_switches"),
            cpuTimeS: try o.number("cpu_time_s", file: file), durationS: try o.number("duration_s", file: file),
            deviceDeliveries: deliveries)
        try stats.validate(file: file)
        return stats
    }
}
