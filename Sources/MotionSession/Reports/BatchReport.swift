import MotionCore

/// What one delivered batch brought, with the session's figures so far: the object
/// `capture --ndjson` prints per batch (one line, `"type": "batch"`; schema in docs/session.md,
/// "NDJSON") and a fleet publisher would send. A plain value with its JSON (``json``).
public struct BatchReport: Sendable, Equatable {
    /// The session id.
    public var session: String
    /// The message's sequence number in the session (batches, events and the summary share it).
    public var sequence: Int
    /// The recording the batch went into (its file name), nil without one.
    public var recording: String?
    /// Timestamp of the batch's first and last sample (ns, the recording's clock).
    public var firstSample: Int64
    /// Timestamp of the batch's last sample.
    public var lastSample: Int64
    /// Samples in the batch.
    public var samples: Int
    /// Samples delivered so far in the session.
    public var totalSamples: Int
    /// Samples lost so far.
    public var lostSamples: Int
    /// Steps counted so far, nil when not analysed.
    public var steps: Int?
    /// The current activity and its confidence (0-100), nil when not analysed.
    public var activity: String?
    /// Confidence of ``activity``.
    public var activityConfidence: Double?
    /// Device deliveries, scheduler wake-ups (nil: not measured) and userspace returns so far.
    public var deviceDeliveries: Int
    /// Scheduler wake-ups so far.
    public var schedulerWakeups: Int64?
    /// Userspace returns so far.
    public var userspaceReturns: Int
    /// Monotonic time since streaming started, ns.
    public var elapsedNanoseconds: Int64
    /// CPU time so far, ns, nil when not measured.
    public var cpuNanoseconds: Int64?

    /// Creates a report.
    public init(session: String, sequence: Int, recording: String?, firstSample: Int64, lastSample: Int64, samples: Int,
                totalSamples: Int, lostSamples: Int, steps: Int?, activity: String? = nil, activityConfidence: Double? = nil,
                deviceDeliveries: Int, schedulerWakeups: Int64?, userspaceReturns: Int, elapsedNanoseconds: Int64, cpuNanoseconds: Int64?) {
        self.session = session
        self.sequence = sequence
        self.recording = recording
        self.firstSample = firstSample
        self.lastSample = lastSample
        self.samples = samples
        self.totalSamples = totalSamples
        self.lostSamples = lostSamples
        self.steps = steps
        self.activity = activity
        self.activityConfidence = activityConfidence
        self.deviceDeliveries = deviceDeliveries
        self.schedulerWakeups = schedulerWakeups
        self.userspaceReturns = userspaceReturns
        self.elapsedNanoseconds = elapsedNanoseconds
        self.cpuNanoseconds = cpuNanoseconds
    }

    /// `count` per hour of streaming so far; nil before any elapsed time.
    public func perHour(_ count: Double?) -> Double? {
        guard let count, elapsedNanoseconds > 0 else { return nil }
        return count * 3.6e12 / Double(elapsedNanoseconds)
    }

    /// The version of the NDJSON lines `capture --ndjson` prints (batch and event lines; the
    /// summary line carries ``SessionSummary/schemaVersion``): docs/schemas/capture-ndjson.schema.json.
    public static let schemaVersion = 1

    /// The NDJSON object.
    public var json: JSONValue {
        .object([
            ("schema", .number(Self.schemaVersion)),
            ("type", .string("batch")),
            ("session", .string(session)),
            ("seq", .number(sequence)),
            ("recording", recording.map { .string($0) } ?? .null),
            ("first_s", .number(Double(firstSample) / 1e9)),
            ("end_s", .number(Double(lastSample) / 1e9)),
            ("samples", .number(samples)),
            ("total_samples", .number(totalSamples)),
            ("lost_samples", .number(lostSamples)),
            ("steps", steps.map { .number($0) } ?? .null),
            ("activity", activity.map { .string($0) } ?? .null),
            ("confidence", .number(activityConfidence)),
            ("wakeups", .object([("device", .number(deviceDeliveries)), ("scheduler", schedulerWakeups.map { .int($0) } ?? .null),
                                 ("userspace", .number(userspaceReturns))])),
            ("wakeups_per_hour", .object([("device", .number(perHour(Double(deviceDeliveries)))),
                                          ("scheduler", .number(perHour(schedulerWakeups.map(Double.init)))),
                                          ("userspace", .number(perHour(Double(userspaceReturns))))])),
            ("elapsed_s", .number(Double(elapsedNanoseconds) / 1e9)),
            ("cpu_s", .number(cpuNanoseconds.map { Double($0) / 1e9 })),
        ])
    }
}
