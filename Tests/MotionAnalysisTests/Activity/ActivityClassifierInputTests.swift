import Foundation
@testable import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// Bad input and bad parameters: clear errors naming the sample, state unchanged.
struct ActivityClassifierInputTests {
    func batch(_ samples: [Sample]) -> SampleBatch { SampleBatch(samples: samples, deliveredAt: samples.last?.timestamp ?? 0) }

    @Test func emptyBatchIsRefused() throws {
        var c = try ActivityClassifier()
        #expect(throws: ActivityClassifierError.input(.emptyBatch)) { try c.process(batch([])) }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteValuesAreRefusedAndNothingIsConsumed(bad: Double) throws {
        var c = try ActivityClassifier(gyroscope: true)
        let good = SyntheticMotion.still(seconds: 10, rateHz: 50)
        _ = try c.process(batch(Array(good[0..<100])))
        let before = c.timeline
        var part = Array(good[100..<200])
        part[7].gyro.y = bad
        #expect(throws: ActivityClassifierError.input(.nonFiniteValue(index: 7, timestamp: part[7].timestamp, quantity: "angular rate"))) { try c.process(batch(part)) }
        #expect(c.samplesProcessed == 100 && c.timeline == before)
        part[7].gyro.y = 0
        part[3].accel.z = bad
        #expect(throws: ActivityClassifierError.input(.nonFiniteValue(index: 3, timestamp: part[3].timestamp, quantity: "acceleration"))) { try c.process(batch(part)) }
        // The rest of the stream is still accepted afterwards.
        part[3].accel.z = 9.81
        _ = try c.process(batch(part))
        #expect(c.samplesProcessed == 200)
    }

    @Test func timestampsMustIncrease() throws {
        var c = try ActivityClassifier()
        let s = SyntheticMotion.still(seconds: 2, rateHz: 50)
        _ = try c.process(batch(Array(s[0..<10])))
        #expect(throws: ActivityClassifierError.input(.timestampNotIncreasing(index: 0, timestamp: s[9].timestamp, previous: s[9].timestamp))) {
            try c.process(batch([s[9]]))
        }
        #expect(throws: ActivityClassifierError.input(.timestampNotIncreasing(index: 1, timestamp: s[5].timestamp, previous: s[10].timestamp))) {
            try c.process(batch([s[10], s[5]]))
        }
        let far = Sample(timestamp: (1 << 62) + 1, accel: Vector3(0, 0, 9.81))
        #expect(throws: ActivityClassifierError.input(.timestampOutOfRange(index: 0, timestamp: far.timestamp))) { try c.process(batch([far])) }
        #expect("\(ActivityClassifierError.input(.timestampNotIncreasing(index: 1, timestamp: 5, previous: 5)))".contains("duplicated"))
        #expect(ActivityClassifierError.input(.nonFiniteValue(index: 4, timestamp: 0, quantity: "acceleration")).sampleIndexInBatch == 4)
        #expect(ActivityClassifierError.input(.emptyBatch).sampleIndexInBatch == nil)
        #expect(ActivityClassifierError.invalidConfiguration("x").sampleIndexInBatch == nil)
        // The step counter names the same problems in the same words.
        #expect(StepCounterError.nonFiniteValue(index: 2, timestamp: 7).description
                == "\(ActivityClassifierError.input(.nonFiniteValue(index: 2, timestamp: 7, quantity: "acceleration")))")
    }

    @Test func badConfigurationsAreRefused() {
        func refused(_ change: (inout ActivityClassifierConfiguration) -> Void) -> Bool {
            var c = ActivityClassifierConfiguration()
            change(&c)
            do { try c.validate(); return false } catch { return "\(error)".contains("invalid activity classifier configuration") }
        }
        #expect(refused { $0.stillMotion = 0 })
        #expect(refused { $0.gaitPeriodicity = 1 })
        #expect(refused { $0.vehicleFloor = .nan })
        #expect(refused { $0.walkingMinimum = 8; $0.runningAmplitude = 7 })
        #expect(refused { $0.vehicleFloor = 0.6 })
        #expect(refused { $0.enterSeconds[0][1] = 0.3 })
        #expect(refused { $0.gaitLostSeconds = 0.5 })
        #expect(refused { $0.enterSeconds = [[1]] })
        #expect(refused { $0.minimumHoldSeconds = [1, 2] })
        #expect(refused { $0.maxBackdateSeconds = -1 })
        #expect(refused { $0.boardingSeconds = .infinity })
        #expect(refused { $0.maxInputGap = 0 })
        #expect(throws: ActivityClassifierError.self) { try ActivityClassifier(configuration: { var c = ActivityClassifierConfiguration(); c.cyclingMotion = -1; return c }()) }
    }

    /// Each parameter name reaches its own value; unknown names and bad values are refused and
    /// leave the configuration unchanged.
    @Test func parametersByName() throws {
        for name in ActivityClassifierConfiguration.parameterNames {
            var c = ActivityClassifierConfiguration()
            let before = try #require(c.value(of: name))
            let new = name == "gaitPeriodicity" ? 0.55 : before * 1.1
            try c.set(name, to: new)
            #expect(c.value(of: name) == new)
            for other in ActivityClassifierConfiguration.parameterNames where other != name {
                #expect(c.value(of: other) == ActivityClassifierConfiguration().value(of: other), "\(name) changed \(other)")
            }
        }
        var c = ActivityClassifierConfiguration()
        #expect(throws: ActivityClassifierError.unknownParameter("nope")) { try c.set("nope", to: 1) }
        #expect(throws: ActivityClassifierError.self) { try c.set("stillMotion", to: -1) }
        #expect(c == ActivityClassifierConfiguration())
        #expect("\(ActivityClassifierError.unknownParameter("nope"))".contains("stillMotion"))
    }
}
