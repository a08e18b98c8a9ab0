import MotionAnalysis
import MotionCore
import Testing

/// Bad input is rejected with a clear error and leaves the counter usable and unchanged.
struct StepCounterInputTests {
    func sample(_ ms: Int64, _ z: Double = 9.81) -> Sample {
        Sample(timestamp: ms * 1_000_000, accel: Vector3(0, 0, z))
    }

    @Test func emptyBatchIsRejected() throws {
        var c = try StepCounter()
        var steps: [Int64] = []
        #expect(throws: StepCounterError.emptyBatch) { try c.process([], into: &steps) }
        #expect(throws: StepCounterError.emptyBatch) { try c.process(SampleBatch(samples: [], deliveredAt: 0), into: &steps) }
        #expect(StepCounterError.emptyBatch.description.contains("empty batch"))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteValuesAreRejected(bad: Double) throws {
        var c = try StepCounter()
        var steps: [Int64] = []
        let batch = [sample(0), sample(10), Sample(timestamp: 20_000_000, accel: Vector3(bad, 0, 9.81))]
        #expect(throws: StepCounterError.nonFiniteValue(index: 2, timestamp: 20_000_000)) { try c.process(batch, into: &steps) }
        #expect(c.samplesProcessed == 0)
        // The state is unchanged: the valid prefix can still be delivered.
        try c.process(Array(batch.prefix(2)), into: &steps)
        #expect(c.samplesProcessed == 2)
    }

    @Test func timestampsGoingBackwardsAreRejected() throws {
        var c = try StepCounter()
        var steps: [Int64] = []
        try c.process([sample(0), sample(10)], into: &steps)
        let e = StepCounterError.timestampNotIncreasing(index: 0, timestamp: 5_000_000, previous: 10_000_000)
        #expect(throws: e) { try c.process([sample(5)], into: &steps) }
        #expect(e.description.contains("going backwards"))
        #expect(throws: StepCounterError.timestampNotIncreasing(index: 1, timestamp: 20_000_000, previous: 20_000_000)) {
            try c.process([sample(20), sample(20)], into: &steps)
        }
        #expect(StepCounterError.timestampNotIncreasing(index: 1, timestamp: 1, previous: 1).description.contains("duplicated"))
        #expect(c.samplesProcessed == 2)
    }

    @Test func extremeTimestampsAreRejectedOrHandled() throws {
        var c = try StepCounter()
        var steps: [Int64] = []
        let g = Vector3(0, 0, 9.81)
        #expect(throws: StepCounterError.timestampOutOfRange(index: 0, timestamp: Int64.min + 1)) {
            try c.process([Sample(timestamp: Int64.min + 1, accel: g)], into: &steps)
        }
        #expect(StepCounterError.timestampOutOfRange(index: 0, timestamp: 0).description.contains("out of range"))
        let limit = StepCounter.timestampLimit
        try c.process([Sample(timestamp: -limit, accel: g), Sample(timestamp: -limit + 40_000_000, accel: g),
                       Sample(timestamp: -limit + 80_000_000, accel: g), Sample(timestamp: 0, accel: g),
                       Sample(timestamp: limit - 80_000_000, accel: g), Sample(timestamp: limit - 40_000_000, accel: g),
                       Sample(timestamp: limit, accel: g)], into: &steps)
        #expect(steps.isEmpty)
        #expect(c.samplesProcessed == 7)
        #expect(throws: StepCounterError.self) { try c.process([Sample(timestamp: Int64.max, accel: g)], into: &steps) }
    }

    /// Issue 13: an Int64.min timestamp was reported as "duplicated" (the initial previous
    /// timestamp is Int64.min); the range is checked first. Huge finite accelerations are refused
    /// like NaN (their squares would overflow to infinity).
    @Test func int64MinIsOutOfRangeNotADuplicateAndHugeValuesAreRefused() throws {
        var c = try StepCounter()
        var steps: [Int64] = []
        #expect(throws: StepCounterError.timestampOutOfRange(index: 0, timestamp: .min)) {
            try c.process([Sample(timestamp: .min, accel: Vector3(0, 0, 9.81))], into: &steps)
        }
        #expect(throws: StepCounterError.nonFiniteValue(index: 0, timestamp: 0)) {
            try c.process([Sample(timestamp: 0, accel: Vector3(1e300, 0, 9.81))], into: &steps)
        }
        try c.process([Sample(timestamp: 0, accel: Vector3(InputLimits.sampleMagnitude, -InputLimits.sampleMagnitude, 0))], into: &steps)
    }

    @Test func invalidConfigurationIsRejected() {
        var config = StepCounterConfiguration()
        config.maxAmplitudeRatio = 0.5
        #expect(throws: StepCounterError.self) { try StepCounter(configuration: config) }
        config = StepCounterConfiguration()
        config.minAmplitude = .nan
        #expect(throws: StepCounterError.self) { try StepCounter(configuration: config) }
    }
}
