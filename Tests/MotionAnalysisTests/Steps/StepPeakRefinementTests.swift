import MotionCore
import MotionTestSupport
import Testing
@testable import MotionAnalysis

/// Step times below the 40 ms grid (issue 23): the parabola's vertex, the record of candidates,
/// and on a walk: the same count, times off the grid, cadence continuous in the step rate.
struct StepPeakRefinementTests {
    /// The vertex of a parabola through three grid values, for peaks at known offsets.
    @Test(arguments: [-0.4, -0.2, 0.0, 0.1, 0.3, 0.49])
    func theVertexOfASampledParabolaIsFound(offset: Double) {
        // y = 5 - (x - offset)^2 sampled at x = -1, 0, 1 (grid periods).
        func y(_ x: Double) -> Double { 5 - (x - offset) * (x - offset) }
        let ns = StepPeakRefinement.offset(before: y(-1), peak: y(0), after: y(1), period: 40_000_000)
        #expect(abs(Double(ns) - offset * 40_000_000) <= 1)
    }

    /// A flat top or a non-peak gives no offset; the offset never leaves half a period.
    @Test func flatTopsAndBadShapesStayOnTheGrid() {
        #expect(StepPeakRefinement.offset(before: 1, peak: 1, after: 1, period: 40_000_000) == 0)
        #expect(StepPeakRefinement.offset(before: 0, peak: 1, after: 2, period: 40_000_000) == 0, "a rising line has no vertex")
        #expect(StepPeakRefinement.offset(before: .nan, peak: 1, after: 0, period: 40_000_000) == 0)
        #expect(abs(StepPeakRefinement.offset(before: 0.999, peak: 1, after: -50, period: 40_000_000)) <= 20_000_000)
    }

    /// The record returns the newest refinement of a grid time and the grid time when forgotten.
    @Test func theRecordKeepsTheNewestCandidates() {
        var r = StepPeakRefinement()
        for k in 0..<40 { r.record(time: Int64(k) * 1_000, offset: Int64(k)) }
        #expect(r.refined(39_000) == 39_039)
        #expect(r.refined(8_000) == 8_008, "the 32nd newest is kept")
        #expect(r.refined(7_000) == 7_000, "older ones are forgotten")
        #expect(r.refined(123) == 123)
    }

    /// On a walk the count is what the grid gives, step times leave the grid, and the cadence
    /// follows the step rate below the grid's resolution (on the grid, 1.9 and 1.95 steps/s
    /// both give a median interval of 0.52 s).
    @Test func cadenceIsContinuousAndTheCountUnchanged() throws {
        var cadences: [Double] = []
        for hz in [1.9, 1.95, 2.0] {
            let samples = SyntheticMotion.walking(stepHz: hz, seconds: 60, rateHz: 100, seed: 7)
            var c = try StepCounter()
            var steps: [Int64] = []
            try c.process(samples, into: &steps)
            #expect(abs(steps.count - Int(60 * hz)) <= 5, "\(hz) steps/s: \(steps.count)")
            #expect(steps.count == c.count)
            let offGrid = steps.filter { $0 % StepCounter.gridPeriod != 0 }.count
            #expect(offGrid > steps.count / 2, "refined times are off the 40 ms grid: \(offGrid) of \(steps.count)")
            #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 < $1 }, "times stay increasing")
            cadences.append(try #require(StepSummary(timestamps: steps).cadence))
        }
        for (c, hz) in zip(cadences, [1.9, 1.95, 2.0]) { #expect(abs(c - 60 * hz) < 1.5, "cadence \(c) for \(60 * hz) steps/min") }
        #expect(cadences[0] < cadences[1] && cadences[1] < cadences[2], "\(cadences)")
    }
}
