import MotionCore
@testable import MotionEmulator

/// A recording at `hz` whose accel x is the row index (in m/s²) so every sample is distinguishable
/// (1 m/s² = 102 raw milli-g counts); gyro z = index × 0.01 rad/s.
func rampSamples(count: Int, hz: Double = 100) -> [Sample] {
    let period = Int64((1e9 / hz).rounded())
    return (0..<count).map { i in
        Sample(timestamp: 5_000_000_000 + Int64(i) * period,
               accel: Vector3(Double(i), -1, 9.81), gyro: Vector3(0, 0.5, Double(i) * 0.01))
    }
}

func makeHub(count: Int = 100, gyro: Bool = true, loop: Bool = false, hubTimestamps: Bool = true,
             capacity: Int = 1024, overflow: OverflowPolicy = .dropOldest) throws -> VirtualSensorHub {
    let source = try SampleSource(samples: rampSamples(count: count), hasGyro: gyro)
    return VirtualSensorHub(source: source, configuration: HubConfiguration(loop: loop, hubTimestamps: hubTimestamps,
                                                                          fifoCapacity: capacity, overflow: overflow))
}

let ms: Int64 = 1_000_000

extension VirtualSensorHub {
    /// Sends a feature SET_REPORT for `kind` with the given properties; returns the actions.
    mutating func set(_ kind: EmulatedSensorKind, reporting: UInt8 = 2, power: UInt8 = 2, intervalMs: UInt32? = nil,
                      latencyMs: UInt32 = 0, now: Int64, requestID: UInt32 = 7) -> [HubAction] {
        let current = sensors.first { $0.kind == kind }!.features
        let f = SensorFeatures(reportingState: reporting, powerState: power, sensorState: 2,
                               reportIntervalMs: intervalMs ?? current.reportIntervalMs, reportLatencyMs: latencyMs)
        return handle(.setReport(requestID: requestID, reportID: kind.reportID, type: .feature,
                                 data: layout.featureReport(kind, f)), now: now)
    }
}

/// Decoded input report: report ID, raw axes, hub timestamp (µs) when present.
struct DecodedInput: Equatable {
    var reportID: UInt8
    var raw: RawVector
    var micros: UInt64?
}

func decodeInputs(_ actions: [HubAction]) -> [DecodedInput] {
    actions.compactMap { a in
        guard case .sendInput(let r) = a else { return nil }
        func s32(_ o: Int) -> Int32 { Int32(bitPattern: UInt32(r[o]) | UInt32(r[o + 1]) << 8 | UInt32(r[o + 2]) << 16 | UInt32(r[o + 3]) << 24) }
        var micros: UInt64?
        if r.count == 21 { micros = (0..<8).reduce(UInt64(0)) { $0 | UInt64(r[13 + $1]) << (8 * UInt64($1)) } }
        return DecodedInput(reportID: r[0], raw: RawVector(x: s32(1), y: s32(5), z: s32(9)), micros: micros)
    }
}

/// Raw accel x counts of recording row `i` of ``rampSamples``.
func accelX(_ i: Int) -> Int32 { EmulatedSensorKind.accelerometer.raw(Vector3(Double(i), 0, 0)).x }
