import Foundation
import MotionCore
import MotionEvaluation
import Testing

/// The lower-rate sets: a recording is thinned by the box-car mean to rates below its own only,
/// and the lower-rate verdict judges the walks' count change.
struct LowerRateTests {
    /// 200 Hz for 10 s: a 60 Hz tone on x (above every new Nyquist frequency) and a 1 Hz one on z.
    static let recording: [Sample] = (0..<2000).map { i in
        let t = Double(i) / 200
        return Sample(timestamp: Int64((t * 1e9).rounded()), accel: Vector3(sin(2 * .pi * 60 * t), 0, 9.81 + sin(2 * .pi * t)))
    }

    @Test func ratesBelowTheOwnOnlyNeverUpsampled() {
        #expect(abs(LowerRate.ownRateHz(Self.recording) - 200) < 1e-9)
        #expect(LowerRate.rates(below: Self.recording) == [50, 25, 12.5])
        let at26 = (0..<260).map { Sample(timestamp: Int64((Double($0) / 26 * 1e9).rounded()), accel: Vector3(0, 0, 9.81)) }
        #expect(LowerRate.rates(below: at26) == [12.5], "25 Hz is not 'below' a 26 Hz log")
        #expect(LowerRate.rates(below: Array(Self.recording.prefix(1))).isEmpty)
    }

    @Test(arguments: LowerRate.standardRates)
    func thinnedByTheMeanOfEachSlot(rateHz: Double) {
        let low = LowerRate.apply(Self.recording, rateHz: rateHz)
        #expect(abs(Double(low.count) - 10 * rateHz) <= 1, "\(low.count) samples")
        #expect(abs(LowerRate.ownRateHz(low) - rateHz) < 0.02 * rateHz)
        // The 60 Hz tone is averaged away (one sample per slot would keep up to its full amplitude).
        #expect(low.map { abs($0.accel.x) }.max()! < 0.25, "aliased: \(low.map { abs($0.accel.x) }.max()!)")
        // The 1 Hz motion passes.
        #expect(low.map(\.accel.z).max()! > 9.81 + 0.9)
        #expect(zip(low, low.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
    }

    @Test func theVerdictJudgesTheWorstRatesMeanChange() {
        func file(_ own: Int, _ counted: Int, truth: Int = 100) -> LowerRateStepEvaluation.File {
            .init(path: "w.csv", set: truth > 0 ? .oxford : .nonWalking, sourceCount: own, counted: counted, truth: truth, seconds: 60)
        }
        let fine = LowerRateStepEvaluation.Rate(rateHz: 25, files: [file(100, 101), file(200, 198), file(0, 3, truth: 0)])
        let off = LowerRateStepEvaluation.Rate(rateHz: 12.5, files: [file(100, 95), file(200, 200)])
        #expect(abs(fine.meanAbsChangePercent - 1) < 1e-9, "the non-walking file is not a walk")
        #expect(abs(off.meanAbsChangePercent - 2.5) < 1e-9)
        #expect(LowerRateStepEvaluation.verdict([fine])?.met == true)
        let v = LowerRateStepEvaluation.verdict([fine, off])
        #expect(v?.met == false && v?.value == off.meanAbsChangePercent)
        #expect(LowerRateStepEvaluation.verdict([]) == nil)
        #expect(abs(fine.nonWalkingFalseStepsPerHour - 180) < 1e-9, "3 steps in a minute")
    }
}
