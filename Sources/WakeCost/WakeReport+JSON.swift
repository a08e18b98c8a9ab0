import MotionCore

/// The report as JSON (every key documented in docs/wake-cost.md section 6, `schema` 2).
extension WakeReport {
    /// The board's parameters, plus `wakeup_energy_j` and usable `battery_wh`.
    func boardJSON() -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(board.name)), ("description", .string(board.description))]
        for (k, v) in board.parameters { members.append((k, .number(v))) }
        members.append(("wakeup_energy_j", .number(board.wakeupEnergyJ)))
        members.append(("battery_wh", .number(board.batteryWh)))
        return .object(members)
    }

    /// One chip of the chip table: sizes, frame layout and sources.
    static func chipJSON(_ c: FIFOChip, sensors: SensorSet) -> JSONValue {
        .object([
            ("name", .string(c.name)), ("fifo_bytes", .number(c.fifoBytes)),
            ("accel_frame_bytes", .number(c.accelFrameBytes)),
            ("accel_gyro_frame_bytes", c.accelGyroFrameBytes.map { .number($0) } ?? .null),
            ("capacity_samples", .number(c.capacity(sensors))),
            ("frame_layout", .string(c.frameLayout)), ("source", .string(c.source)),
            ("linux_driver", .string(c.linuxDriver)), ("linux_batches", .bool(c.linuxBatches)), ("assumed", .bool(c.isAssumed)),
        ])
    }

    /// One FIFO verdict.
    func verdictJSON(_ f: FIFOVerdict) -> JSONValue {
        .object([
            ("chip", .string(f.chip)), ("capacity_samples", .number(f.capacitySamples)), ("bytes_per_sample", .number(f.bytesPerSample)),
            ("fits", .bool(f.fits)), ("fits_with_margin", .bool(f.fits(margin: recommendation.constraints.fifoMargin))),
            ("fill_fraction", .number(f.fillFraction)), ("full_after_s", .number(f.fullAfterS)),
            ("overflow_after_s", .number(f.overflowAfterS)), ("lost_samples_per_hour", .number(f.lostSamplesPerHour)),
            ("assumed", .bool(f.isAssumed)), ("linux_batches", .bool(f.linuxBatches)),
        ])
    }

    /// One configuration.
    func configurationJSON(_ p: WakeCostPrediction) -> JSONValue {
        let c = p.configuration
        return .object([
            ("rate_hz", .number(c.rateHz)), ("latency_s", .number(c.latencyS)), ("batch_samples", .number(c.batchSamples)),
            ("buffering", .string(c.isPerSample ? "per-sample" : c.buffering.rawValue)),
            ("samples_per_hour", .number(p.perHour.samples)),
            ("device_deliveries_per_hour", .number(p.perHour.deviceDeliveries)),
            ("scheduler_wakeups_per_hour", .number(p.perHour.schedulerWakeups)),
            ("process_wakeups_per_hour", .number(p.perHour.userspaceReturns)),
            ("cpu_active_s_per_hour", .number(p.cpuActiveSPerHour)), ("energy_j_per_hour", .number(p.energyJPerHour)),
            ("average_power_w", .number(p.averagePowerW)), ("battery_percent_per_hour", .number(p.batteryPercentPerHour)),
            ("battery_life_h", .number(p.batteryLifeH)), ("worst_latency_s", .number(p.worstLatencyS)),
            ("recommended", .bool(isRecommended(p))),
            ("fifo", .array(p.fifo.map(verdictJSON))),
        ])
    }

    /// One side of the headline: the model's figures and, with a replay, the measured delays.
    static func sideJSON(_ p: WakeCostPrediction, replay: ConfigurationReplay?) -> JSONValue {
        .object([
            ("latency_s", .number(p.configuration.latencyS)), ("batch_samples", .number(p.configuration.batchSamples)),
            ("device_deliveries_per_hour", .number(p.perHour.deviceDeliveries)),
            ("scheduler_wakeups_per_hour", .number(p.perHour.schedulerWakeups)),
            ("process_wakeups_per_hour", .number(p.perHour.userspaceReturns)),
            ("cpu_active_s_per_hour", .number(p.cpuActiveSPerHour)), ("energy_j_per_hour", .number(p.energyJPerHour)),
            ("average_power_w", .number(p.averagePowerW)), ("battery_life_h", .number(p.batteryLifeH)),
            ("worst_latency_s", .number(p.worstLatencyS)),
            ("worst_sample_delay_s", .number(replay?.worstSampleDelayS)),
            ("step_visibility_s", replay.map { VisibilityDelays.json($0.steps) } ?? VisibilityDelays.json(nil)),
            ("activity_visibility_s", VisibilityDelays.json(replay?.activity)),
        ])
    }

    /// The headline object, or null.
    func headlineJSON() -> JSONValue {
        guard let h = headline else { return .null }
        return .object([
            ("board", .string(h.board.name)), ("rate_hz", .number(h.batched.configuration.rateHz)),
            ("per_sample", Self.sideJSON(h.perSample, replay: h.perSampleReplay)),
            ("batched", Self.sideJSON(h.batched, replay: h.batchedReplay)),
            ("battery_gain_h", .number(h.batteryGainH)), ("battery_gain_percent", .number(h.batteryGainPercent)),
            ("energy_saved_percent", .number(h.energySavedPercent)), ("power_saved_w", .number(h.powerSavedW)),
            ("idle_power_w", .number(h.board.idlePowerW)), ("idle_dominates", .bool(h.idleDominates)),
            ("summary", .array(h.sentences.map { .string($0) })),
        ])
    }

    /// One constraint violation.
    static func violationJSON(_ v: ConstraintViolation) -> JSONValue {
        .object([("constraint", .string(v.key)), ("detail", .string(v.detail))])
    }

    /// The recommendation object (`chosen` null when nothing meets the constraints).
    func recommendationJSON() -> JSONValue {
        let r = recommendation
        let chosen: JSONValue = r.chosen.map { c in
            .object([
                ("rate_hz", .number(c.prediction.configuration.rateHz)), ("latency_s", .number(c.prediction.configuration.latencyS)),
                ("batch_samples", .number(c.prediction.configuration.batchSamples)),
                ("energy_j_per_hour", .number(c.prediction.energyJPerHour)), ("battery_life_h", .number(c.prediction.batteryLifeH)),
                ("delay_s", .number(c.delayS)), ("delay_measure", .string(c.delayMeasure)),
                ("replayed", .bool(c.isReplayed)), ("replayed_rate_hz", c.replay.map { .number($0.replayedRateHz) } ?? .null),
            ])
        } ?? .null
        let smallest: JSONValue = r.smallestDelay.map { s in
            .object([
                ("rate_hz", .number(s.prediction.configuration.rateHz)), ("latency_s", .number(s.prediction.configuration.latencyS)),
                ("delay_s", .number(s.delayS)), ("delay_measure", .string(s.delayMeasure)), ("replayed", .bool(s.isReplayed)),
            ])
        } ?? .null
        let cheaper = r.candidates.prefix { !$0.isAcceptable }.map { c in
            JSONValue.object([
                ("rate_hz", .number(c.prediction.configuration.rateHz)), ("latency_s", .number(c.prediction.configuration.latencyS)),
                ("energy_j_per_hour", .number(c.prediction.energyJPerHour)),
                ("violations", .array(c.violations.map(Self.violationJSON))),
            ])
        }
        return .object([
            ("chosen", chosen),
            ("binding", .array(r.binding.map(Self.violationJSON))),
            ("fifo_limit", r.fifoLimit.map { .object([("chip", .string($0.chip)), ("latency_s", .number($0.latencyS))]) } ?? .null),
            ("rejected_cheaper", .array(Array(cheaper))),
            ("smallest_achievable_delay", smallest),
            ("max_delay_unreachable", .bool(r.maxDelayUnreachable)),
            ("chips_from", r.constraints.chipSource.map { .string($0) } ?? .null),
            ("reasons", .array(r.reasons.map { .string($0) })),
        ])
    }

    /// The constraints object.
    func constraintsJSON() -> JSONValue {
        let c = recommendation.constraints
        return .object([
            ("max_delay_s", .number(c.maxDelayS)), ("fifo_margin", .number(c.fifoMargin)),
            ("minimum_rate_hz", .number(c.minimumRateHz)),
            ("delay_measure", .string(replays.isEmpty ? "model" : "replay")),
        ])
    }

    /// One measured capture scaled to an hour.
    static func measuredJSON(_ m: MeasuredPoint) -> JSONValue {
        .object([
            ("capture", .string(m.label)), ("rate_hz", .number(m.configuration.rateHz)), ("latency_s", .number(m.configuration.latencyS)),
            ("buffering", .string(m.configuration.isPerSample ? "per-sample" : m.configuration.buffering.rawValue)),
            ("scheduler_wakeups_per_hour", .number(m.schedulerWakeupsPerHour)),
            ("process_wakeups_per_hour", .number(m.userspaceReturnsPerHour)),
            ("device_deliveries_per_hour", .number(m.deviceDeliveriesPerHour)),
            ("process_cpu_s_per_hour", .number(m.processCPUSPerHour)),
        ])
    }

    /// The whole report as one JSON object, members in documented order; each of `extra` (a key
    /// and an already-encoded JSON value, e.g. the CLI's `replay`) is appended at the end.
    public func json(extra: [(String, String)] = []) -> String {
        var members: [(String, String)] = [
            ("schema", String(Self.schemaVersion)),
            ("board", boardJSON().serialized()),
            ("sensors", JSONValue.array(Self.sensorNames(sensors).map { .string($0) }).serialized()),
            ("buffering", JSONValue.string(buffering.rawValue).serialized()),
            ("chips", JSONValue.array(chips.map { Self.chipJSON($0, sensors: sensors) }).serialized()),
            ("analysis_requirements", JSONValue.array(recommendation.constraints.requirements.map {
                .object([("analysis", .string($0.analysis)), ("minimum_rate_hz", .number($0.minimumRateHz)), ("basis", .string($0.basis))])
            }).serialized()),
            ("constraints", constraintsJSON().serialized()),
            ("headline", headlineJSON().serialized(pretty: true)),
            ("recommendation", recommendationJSON().serialized(pretty: true)),
            ("measured", JSONValue.array(measured.map(Self.measuredJSON)).serialized()),
        ]
        members.append(("configurations", "[\n" + predictions.map { "    " + configurationJSON($0).serialized() }.joined(separator: ",\n") + "\n  ]"))
        members += extra
        return "{\n" + members.map { "  \(JSONValue.quoted($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
    }
}
