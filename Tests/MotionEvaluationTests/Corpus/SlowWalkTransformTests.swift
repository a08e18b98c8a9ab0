import MotionCore
import MotionEvaluation
import Testing

/// The slow and gentle walks: the clock stretched, the motion scaled about the mean.
struct SlowWalkTransformTests {
    @Test func timeIsStretchedAndMotionScaledAboutTheMean() throws {
        var samples: [Sample] = []
        for i in 0..<200 {
            let t: Int64 = 5_000_000_000 + Int64(i) * 10_000_000 + Int64(i % 3)
            let z: Double = 9.81 + (i % 4 == 0 ? 3 : -1)
            samples.append(Sample(timestamp: t, accel: Vector3(Double(i % 2), 0, z)))
        }
        let slow = SlowWalkTransform().apply(to: samples)
        #expect(slow.count == samples.count)
        let mean = try #require(MeanAcceleration.of(samples))
        for (a, b) in zip(samples, slow) {
            #expect(b.timestamp == 5_000_000_000 + Int64((Double(a.timestamp - 5_000_000_000) * 1.25).rounded()))
            #expect(abs((b.accel.z - mean.z) - (a.accel.z - mean.z) / 1.96) < 1e-12)
            #expect(abs((b.accel.x - mean.x) - (a.accel.x - mean.x) / 1.96) < 1e-12)
        }
        #expect(zip(slow, slow.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        #expect(SlowWalkTransform().apply(to: []).isEmpty)
    }
}
