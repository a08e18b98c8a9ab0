import MotionCore

extension VirtualSensorHub {
    /// The hub's state as JSON: one object per sensor with its properties, counters and
    /// property history (times in seconds relative to `origin`, a hub time in ns).
    ///
    /// Keys per sensor: `name`, `report_id`, `active`, `reporting_state`, `power_state`,
    /// `sensor_state`, `report_interval_ms`, `report_latency_ms`, `fifo_enabled` (latency > 0),
    /// `queued`, `samples_generated`, `samples_sent`, `samples_dropped`, `samples_discarded`,
    /// `bursts`, `max_burst`, `get_reports`, `set_reports`, `loops`, `exhausted`,
    /// `history` [{`t_s`, `property`, `value`}], `burst_times_s` (each delivery's time, the first
    /// ``SensorCounters/burstTimesLimit``).
    public func sensorsJSON(origin: Int64) -> JSONValue {
        .array(sensors.map { s in
            let f = s.features, c = s.counters
            return .object([
                ("name", .string(s.kind.iioName)),
                ("report_id", .int(Int64(s.kind.reportID))),
                ("active", .bool(s.active)),
                ("reporting_state", .int(Int64(f.reportingState))),
                ("power_state", .int(Int64(f.powerState))),
                ("sensor_state", .int(Int64(f.sensorState))),
                ("report_interval_ms", .int(Int64(f.reportIntervalMs))),
                ("report_latency_ms", .int(Int64(f.reportLatencyMs))),
                ("fifo_enabled", .bool(f.reportLatencyMs > 0)),
                ("queued", .int(Int64(s.queued))),
                ("samples_generated", .int(Int64(c.samplesGenerated))),
                ("samples_sent", .int(Int64(c.samplesSent))),
                ("samples_dropped", .int(Int64(c.samplesDropped))),
                ("samples_discarded", .int(Int64(c.samplesDiscarded))),
                ("bursts", .int(Int64(c.bursts))),
                ("max_burst", .int(Int64(c.maxBurst))),
                ("get_reports", .int(Int64(c.getReports))),
                ("set_reports", .int(Int64(c.setReports))),
                ("loops", .int(Int64(c.loops))),
                ("exhausted", .bool(s.exhausted)),
                ("burst_times_s", .array(c.burstTimes.map { .double(Double($0 - origin) / 1e9) })),
                ("history", .array(s.history.map {
                    .object([("t_s", .double(Double($0.time - origin) / 1e9)), ("property", .string($0.property)), ("value", .int(Int64($0.value)))])
                })),
            ])
        })
    }
}
