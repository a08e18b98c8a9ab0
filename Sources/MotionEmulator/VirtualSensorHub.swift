/// The virtual HID sensor hub as a pure state machine: it is told what the host asked
/// (``HubEvent``) and what time it is, and answers with ``HubAction``s. It does no I/O and
/// reads no clock, so every behaviour is testable without /dev/uhid.
///
/// Behaviour per sensor:
/// - No samples unless the host set reporting state to an events value and power state to D0/D1.
/// - Samples are taken from the recording every report interval (resampled by linear
///   interpolation); playback starts at the recording's first sample when the sensor is first
///   switched on and pauses while it is off.
/// - Report latency 0: each sample is sent when it is due. Latency L > 0: samples queue in the
///   FIFO and everything queued is sent as one burst every L (the first burst L after switch-on).
///   A full FIFO drops the oldest or the newest sample (``OverflowPolicy``). Samples still queued
///   when the sensor is switched off are discarded.
/// - Every GET_REPORT is answered by type (feature: the properties; input: the current sample)
///   and every SET_REPORT gets a reply (EINVAL for malformed reports, EIO for unknown IDs).
public struct VirtualSensorHub: Sendable {
    /// Report layout (sensors, timestamps, descriptor).
    public let layout: SensorHubLayout
    /// Behaviour settings.
    public let configuration: HubConfiguration
    /// The recording being played.
    public let source: SampleSource
    /// Per-sensor state, in ``SensorHubLayout/sensors`` order.
    public private(set) var sensors: [EmulatedSensor]
    /// Whether ``HubAction/recordingEnded`` was emitted.
    public private(set) var ended = false

    static let einval: UInt16 = 22
    static let eio: UInt16 = 5

    /// Creates a hub for `source`: an accelerometer, plus a gyroscope when the recording has one.
    /// The report interval starts at the recording's native interval (rounded to ms, at least 1).
    public init(source: SampleSource, configuration: HubConfiguration) {
        self.source = source
        self.configuration = configuration
        let kinds: [EmulatedSensorKind] = source.hasGyro ? [.accelerometer, .gyroscope] : [.accelerometer]
        layout = SensorHubLayout(sensors: kinds, hubTimestamps: configuration.hubTimestamps)
        let ms = UInt32(max(1, (Double(source.nativeInterval) / 1e6).rounded()))
        sensors = kinds.map {
            EmulatedSensor(kind: $0, features: .initial(reportIntervalMs: ms),
                           fifoCapacity: configuration.fifoCapacity, overflow: configuration.overflow)
        }
    }

    /// Handles one host request at hub time `now` (ns); first delivers whatever was due.
    public mutating func handle(_ event: HubEvent, now: Int64) -> [HubAction] {
        var actions = advance(to: now)
        switch event {
        case let .getReport(id, reportID, type):
            guard let i = index(reportID) else {
                actions.append(.replyGetReport(requestID: id, error: Self.eio, data: []))
                break
            }
            sensors[i].counters.getReports += 1
            let kind = sensors[i].kind
            switch type {
            case .feature:
                actions.append(.replyGetReport(requestID: id, error: 0, data: layout.featureReport(kind, sensors[i].features)))
            case .input:
                let raw = kind.raw(source.value(kind, at: sensors[i].cursor))
                actions.append(.replyGetReport(requestID: id, error: 0,
                                               data: layout.inputReport(kind, raw, hubTimestampMicros: Self.micros(now))))
            case .output:
                actions.append(.replyGetReport(requestID: id, error: Self.eio, data: []))
            }
        case let .setReport(id, reportID, type, data):
            guard let i = index(reportID) else {
                actions.append(.replySetReport(requestID: id, error: Self.eio))
                break
            }
            sensors[i].counters.setReports += 1
            guard type == .feature,
                  let new = layout.applyFeatureReport(sensors[i].kind, data, to: sensors[i].features) else {
                actions.append(.replySetReport(requestID: id, error: Self.einval))
                break
            }
            actions += apply(new, to: i, now: now)
            actions.append(.replySetReport(requestID: id, error: 0))
        }
        actions += checkEnded()
        return actions
    }

    /// Delivers everything due at or before hub time `now`.
    /// - Complexity: O(samples due).
    public mutating func advance(to now: Int64) -> [HubAction] {
        var actions: [HubAction] = []
        for i in sensors.indices where sensors[i].active {
            if sensors[i].latency == 0 {
                while !sensors[i].exhausted && sensors[i].nextSampleTime <= now {
                    if let s = takeSample(i) { actions.append(deliver([s], sensor: i)) }
                }
            } else {
                while let flush = sensors[i].nextFlush, flush <= now {
                    fill(i, until: flush)
                    let batch = sensors[i].fifo.drain()
                    if !batch.isEmpty { actions.append(contentsOf: deliverBurst(batch, sensor: i, at: flush)) }
                    if sensors[i].exhausted && sensors[i].fifo.isEmpty {
                        sensors[i].nextFlush = nil
                    } else {
                        // Skip whole periods when far behind (host suspended): they would be empty anyway.
                        var next = flush + sensors[i].latency
                        if now - next > 100 * sensors[i].latency { next = now }
                        sensors[i].nextFlush = next
                    }
                }
            }
        }
        actions += checkEnded()
        return actions
    }

    /// The hub time at which ``advance(to:)`` has something to do, or nil when idle.
    public var nextDeadline: Int64? {
        var best: Int64?
        for s in sensors where s.active {
            let t: Int64? = s.latency == 0 ? (s.exhausted ? nil : s.nextSampleTime) : s.nextFlush
            if let t, best == nil || t < best! { best = t }
        }
        return best
    }

    /// The input report bytes of one sample of `kind`.
    func report(_ s: PendingSample, kind: EmulatedSensorKind) -> [UInt8] {
        layout.inputReport(kind, s.raw, hubTimestampMicros: Self.micros(s.time))
    }

    /// Hub timestamp in µs for hub time `t` (never 0: the driver treats 0 as "no timestamp").
    static func micros(_ t: Int64) -> UInt64 { UInt64(max(1, t / 1000)) }

    private func index(_ reportID: UInt8) -> Int? { sensors.firstIndex { $0.kind.reportID == reportID } }

    private mutating func apply(_ new: SensorFeatures, to i: Int, now: Int64) -> [HubAction] {
        let old = sensors[i].features
        // Samples due so far were taken under the old properties: queue them before changing anything.
        if sensors[i].active && sensors[i].latency > 0 { fill(i, until: now) }
        func note(_ p: String, _ a: UInt32, _ b: UInt32) {
            if a != b { sensors[i].history.append(PropertyChange(time: now, property: p, value: b)) }
        }
        note("reporting_state", UInt32(old.reportingState), UInt32(new.reportingState))
        note("power_state", UInt32(old.powerState), UInt32(new.powerState))
        note("report_interval_ms", old.reportIntervalMs, new.reportIntervalMs)
        note("report_latency_ms", old.reportLatencyMs, new.reportLatencyMs)
        sensors[i].features = new
        var actions: [HubAction] = []
        let wasActive = sensors[i].active
        if new.isActive && !wasActive {
            sensors[i].active = true
            sensors[i].nextSampleTime = now
            sensors[i].nextFlush = new.reportLatencyMs > 0 ? now + sensors[i].latency : nil
        } else if !new.isActive && wasActive {
            sensors[i].active = false
            sensors[i].nextFlush = nil
            sensors[i].counters.samplesDiscarded += sensors[i].fifo.drain().count
        } else if new.isActive {
            if new.reportIntervalMs != old.reportIntervalMs {
                // The next sample follows the previous one by the new interval.
                let previous = sensors[i].nextSampleTime - Int64(old.reportIntervalMs) * 1_000_000
                sensors[i].nextSampleTime = max(now, previous + sensors[i].interval)
            }
            if new.reportLatencyMs != old.reportLatencyMs {
                if new.reportLatencyMs == 0 {
                    fill(i, until: now)
                    let batch = sensors[i].fifo.drain()
                    if !batch.isEmpty { actions += deliverBurst(batch, sensor: i, at: now) }
                    sensors[i].nextFlush = nil
                } else {
                    sensors[i].nextFlush = now + sensors[i].latency
                }
            }
        }
        return actions
    }

    /// Takes the next sample from the recording (advancing the cursor), or nil when exhausted.
    private mutating func takeSample(_ i: Int) -> PendingSample? {
        if sensors[i].cursor > source.lastTime {
            if configuration.loop {
                sensors[i].cursor -= source.period
                if sensors[i].cursor < 0 { sensors[i].cursor = 0 }
                sensors[i].counters.loops += 1
            } else {
                sensors[i].exhausted = true
                return nil
            }
        }
        let kind = sensors[i].kind
        let s = PendingSample(time: sensors[i].nextSampleTime, raw: kind.raw(source.value(kind, at: sensors[i].cursor)))
        sensors[i].cursor += sensors[i].interval
        sensors[i].nextSampleTime += sensors[i].interval
        sensors[i].counters.samplesGenerated += 1
        return s
    }

    /// Moves every sample due at or before `t` into the FIFO (applying the overflow policy).
    private mutating func fill(_ i: Int, until t: Int64) {
        while !sensors[i].exhausted && sensors[i].nextSampleTime <= t {
            guard let s = takeSample(i) else { break }
            if sensors[i].fifo.push(s) { sensors[i].counters.samplesDropped += 1 }
        }
    }

    private mutating func deliver(_ batch: [PendingSample], sensor i: Int) -> HubAction {
        sensors[i].counters.samplesSent += 1
        sensors[i].counters.noteBurst(at: batch[0].time)
        sensors[i].counters.maxBurst = max(sensors[i].counters.maxBurst, 1)
        return .sendInput(report: report(batch[0], kind: sensors[i].kind))
    }

    private mutating func deliverBurst(_ batch: [PendingSample], sensor i: Int, at time: Int64) -> [HubAction] {
        sensors[i].counters.samplesSent += batch.count
        sensors[i].counters.noteBurst(at: time)
        sensors[i].counters.maxBurst = max(sensors[i].counters.maxBurst, batch.count)
        let kind = sensors[i].kind
        return batch.map { .sendInput(report: report($0, kind: kind)) }
    }

    private mutating func checkEnded() -> [HubAction] {
        guard !ended, !configuration.loop else { return [] }
        let anyExhausted = sensors.contains { $0.exhausted }
        let allDone = sensors.allSatisfy { ($0.exhausted && $0.fifo.isEmpty) || !$0.active }
        if anyExhausted && allDone {
            ended = true
            return [.recordingEnded]
        }
        return []
    }
}
