import MotionCore
import WakeCost

/// The summary of one recording, or of a whole capture session: written beside each recording as
/// `NAME.summary.json` and printed at the end of a session (schema in docs/session.md,
/// "Summaries"). A plain value with its JSON (``json``), so that other sinks (a fleet publisher)
/// send the same object.
public struct SessionSummary: Sendable, Equatable {
    /// What the summary covers.
    public enum Scope: Sendable, Equatable {
        /// One recording (its file name, its place in the session: 1, 2, ...).
        case recording(name: String, sequence: Int)
        /// The whole session (every recording it wrote, in order).
        case session(recordings: [String])
    }

    /// Why the span ended.
    public enum End: String, Sendable, Equatable {
        /// SIGINT or SIGTERM.
        case signal
        /// `--duration` elapsed.
        case duration
        /// `--samples` reached.
        case samples
        /// The next recording took over (`--rotate`).
        case rotated
        /// The device went away.
        case lost
        /// The disk was full and nothing could be deleted.
        case diskFull = "disk-full"
        /// An error stopped the capture.
        case failed
        /// The process died without closing it (found by `recover`).
        case interrupted
    }

    /// What the summary covers.
    public var scope: Scope
    /// The session id (the same for every recording of one `capture` run).
    public var session: String
    /// Whether the process closed the span itself (false: finalized by `recover`).
    public var complete: Bool
    /// Why it ended.
    public var end: End
    /// When it started, ISO 8601 UTC, when the wall clock was synchronized.
    public var startUTC: String?
    /// The wall clock's state when it started (`synchronized maxerror_us=N` or `unsynchronized`).
    public var clockSync: String?
    /// The kernel's boot id.
    public var bootID: String?
    /// The figures.
    public var tally: SessionTally
    /// Time per activity class, s (the standard analysis' activity classifier), nil when not analysed.
    public var activityTime: [(activity: String, seconds: Double)]?
    /// Steps inferred in the counter's silences during gait (``MotionAnalysis/InferredSteps``),
    /// never part of the tally's steps; nil when not analysed or not inferred.
    public var inferredSteps: Int?
    /// The battery estimate for the `--board` profile, nil without one.
    public var battery: BatteryEstimate?
    /// For a summary made by `recover`: the sample time (ns) up to which the checkpointed process
    /// figures (wake-ups, CPU) go; nil when complete or when there was no checkpoint.
    public var figuresAsOf: Int64?
    /// Problems to know about (the analysis stopped, a summary could not be written, ...).
    public var warnings: [String]
    /// Whether the figures only the capturing process knew (batches, wake-ups, CPU and elapsed
    /// time) are known: false for a recovered recording without a checkpoint (they are `null`,
    /// never invented).
    public var processFiguresKnown = true

    /// Creates a summary.
    public init(scope: Scope, session: String, complete: Bool, end: End, startUTC: String? = nil, clockSync: String? = nil,
                bootID: String? = nil, tally: SessionTally, activityTime: [(activity: String, seconds: Double)]? = nil,
                inferredSteps: Int? = nil, battery: BatteryEstimate? = nil, figuresAsOf: Int64? = nil, warnings: [String] = []) {
        self.scope = scope
        self.session = session
        self.complete = complete
        self.end = end
        self.startUTC = startUTC
        self.clockSync = clockSync
        self.bootID = bootID
        self.tally = tally
        self.activityTime = activityTime
        self.inferredSteps = inferredSteps
        self.battery = battery
        self.figuresAsOf = figuresAsOf
        self.warnings = warnings
    }

    public static func == (a: SessionSummary, b: SessionSummary) -> Bool { a.json == b.json }

    /// The summary schema's version (the `schema` key).
    public static let schemaVersion = 1

    /// The JSON object (keys in documented order; every time in seconds is a duration or a
    /// sample time / 10^9).
    public var json: JSONValue {
        let t = tally
        var members: [(String, JSONValue)] = [("schema", .int(Int64(Self.schemaVersion)))]
        switch scope {
        case let .recording(name, sequence):
            members += [("kind", .string("recording")), ("session", .string(session)), ("recording", .string(name)), ("sequence", .number(sequence))]
        case .session(let recordings):
            members += [("kind", .string("session")), ("session", .string(session)), ("recordings", .array(recordings.map { .string($0) }))]
        }
        let known = processFiguresKnown
        func optionalInt(_ v: Int64?) -> JSONValue { known ? v.map { .int($0) } ?? .null : .null }
        func optionalCount(_ v: Int?) -> JSONValue { v.map { .number($0) } ?? .null }
        func process(_ v: JSONValue) -> JSONValue { known ? v : .null }
        members += [
            ("complete", .bool(complete)),
            ("end", .string(end.rawValue)),
            ("start_utc", startUTC.map { .string($0) } ?? .null),
            ("clock_sync", clockSync.map { .string($0) } ?? .null),
            ("boot_id", bootID.map { .string($0) } ?? .null),
            ("first_s", .number(t.firstSample.map { Double($0) / 1e9 })),
            ("last_s", .number(t.lastSample.map { Double($0) / 1e9 })),
            ("duration_s", .number(t.sampleSpanSeconds)),
            ("elapsed_s", process(.number(Double(t.elapsedNanoseconds) / 1e9))),
            ("samples", .number(t.samples)),
            ("batches", process(.number(t.batches))),
            ("lost_samples", .number(t.lostSamples)),
            ("gaps", .number(t.gaps)),
            ("pauses", .object([("count", .number(t.pauses)), ("total_s", .number(Double(t.pausedNanoseconds) / 1e9))])),
            ("device_losses", .object([("count", .number(t.deviceLosses)), ("total_s", .number(Double(t.lostNanoseconds) / 1e9))])),
            ("steps", optionalCount(t.steps)),
            ("inferred_steps", inferredSteps.map { .number($0) } ?? .null),
            ("activity_time_s", activityTime.map { list in .object(list.map { ($0.activity, .number($0.seconds)) }) } ?? .null),
            ("wakeups", .object([("device", process(.number(t.deviceDeliveries))), ("scheduler", optionalInt(t.schedulerWakeups)),
                                 ("userspace", process(.number(t.userspaceReturns)))])),
            ("wakeups_per_hour", .object([("device", process(.number(t.perHour(Double(t.deviceDeliveries))))),
                                          ("scheduler", process(.number(t.perHour(t.schedulerWakeups.map(Double.init))))),
                                          ("userspace", process(.number(t.perHour(Double(t.userspaceReturns)))))])),
            ("cpu_s", process(.number(t.cpuNanoseconds.map { Double($0) / 1e9 }))),
            ("battery", battery.map { b in .object([
                ("board", .string(b.board)), ("cpu_active_s_per_h", .number(b.cpuActiveSPerHour)),
                ("energy_j_per_h", .number(b.energyJPerHour)), ("average_power_w", .number(b.averagePowerW)),
                ("battery_life_h", .number(b.batteryLifeH)),
            ]) } ?? .null),
            ("figures_as_of_s", .number(figuresAsOf.map { Double($0) / 1e9 })),
            ("events", .number(t.events)),
            ("bytes", .int(t.bytes)),
            ("warnings", .array(warnings.map { .string($0) })),
        ]
        return .object(members)
    }

    /// A few lines for a terminal or a log: samples, losses, pauses, steps, wake-ups, CPU, battery.
    public var text: String {
        let t = tally
        var lines: [(String, String)] = []
        switch scope {
        case let .recording(name, _): lines.append(("recording", name))
        case .session(let r): lines.append(("recordings", r.isEmpty ? "none" : "\(r.count) (\(r.first!)\(r.count > 1 ? " ... \(r.last!)" : ""))"))
        }
        func f(_ v: Double, _ d: Int = 1) -> String {
            guard v.isFinite else { return "-" }
            var p = 1.0
            for _ in 0..<d { p *= 10 }
            let r = (v * p).rounded() / p
            return d == 0 ? String(Int(r)) : String(r)
        }
        lines += [
            ("ended", end.rawValue + (complete ? "" : " (recovered)")),
            ("samples", "\(t.samples) in \(f(t.sampleSpanSeconds)) s" + (processFiguresKnown ? ", \(t.batches) batches" : "")),
            ("lost samples", "\(t.lostSamples) in \(t.gaps) gaps"),
            ("pauses", "\(t.pauses), \(f(Double(t.pausedNanoseconds) / 1e9)) s"),
            ("device losses", "\(t.deviceLosses), \(f(Double(t.lostNanoseconds) / 1e9)) s"),
            ("steps", (t.steps.map(String.init) ?? "not counted") + (inferredSteps.map { $0 > 0 ? " (+\($0) inferred)" : "" } ?? "")),
        ]
        if let a = activityTime, !a.isEmpty { lines.append(("activity", a.map { "\($0.activity) \(f($0.seconds)) s" }.joined(separator: ", "))) }
        if processFiguresKnown {
            let perHour = [t.perHour(Double(t.deviceDeliveries)), t.schedulerWakeups.flatMap { t.perHour(Double($0)) }, t.perHour(Double(t.userspaceReturns))]
            lines.append(("wake-ups", "device \(t.deviceDeliveries), scheduler \(t.schedulerWakeups.map(String.init) ?? "unknown"), userspace \(t.userspaceReturns)"
                          + " (per hour: \(perHour.map { $0.map { f($0, 0) } ?? "-" }.joined(separator: " / ")))"))
            lines.append(("CPU time", t.cpuNanoseconds.map { "\(f(Double($0) / 1e9, 3)) s" } ?? "unknown"))
        } else {
            lines.append(("wake-ups, CPU", "unknown (no checkpoint)"))
        }
        if let b = battery { lines.append(("battery", "\(b.board): \(f(b.averagePowerW, 3)) W average, \(f(b.batteryLifeH, 2)) h")) }
        for w in warnings { lines.append(("warning", w)) }
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 }.joined(separator: "\n") + "\n"
    }
}
