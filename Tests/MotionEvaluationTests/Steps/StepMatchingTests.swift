import MotionEvaluation
import Testing

struct StepMatchingTests {
    let s: Int64 = 1_000_000_000

    @Test func constantOffsetIsRemoved() {
        let truth = (0..<10).map { Int64($0) * s / 2 }
        let detected = truth.map { $0 + 400_000_000 }  // 0.4 s late: outside ±0.25 s without the offset
        let m = StepMatching(detected: detected, truth: truth)
        #expect(m.matched == 10)
        #expect(m.precision == 1 && m.recall == 1)
        #expect(abs(m.offset + 400_000_000) <= 1)
    }

    @Test func extraAndMissedStepsAreCounted() {
        let truth = (0..<10).map { Int64($0) * s }
        var detected = truth
        detected.remove(at: 4)                  // one missed
        detected.insert(7 * s + s / 2, at: 6)   // one extra, half-way between steps
        let m = StepMatching(detected: detected.sorted(), truth: truth)
        #expect(m.matched == 9)
        #expect(m.detected == 10 && m.truth == 10)
        #expect(abs(m.precision - 0.9) < 1e-12 && abs(m.recall - 0.9) < 1e-12)
    }

    @Test func oneToOne() {
        // Two detections near one true step match it only once.
        let m = StepMatching(detected: [0, 100_000_000], truth: [50_000_000], maxOffset: 0)
        #expect(m.matched == 1)
    }
}
