import Foundation
@testable import MotionAnalysis
import Testing
import MotionTestSupport

/// The periodicity measure behind the walk-confirmation gate.
struct StepSignalHistoryTests {
    static func history(_ f: (Int) -> Double, count: Int = 200) -> StepSignalHistory {
        var h = StepSignalHistory()
        for i in 0..<count { h.push(f(i)) }
        return h
    }

    @Test func aPeriodicSignalScoresNearOneAtItsPeriodAndItsDouble() {
        // 12.5 grid points per step (2 steps/s at 25 Hz).
        var h = Self.history { sin(2 * .pi * Double($0) / 12.5) }
        #expect(h.periodicity(period: 12.5, tolerance: 0.15, window: 62) > 0.95)
        // Half a period off: anti-correlated, and the tolerance window does not reach a multiple.
        #expect(h.autocorrelation(lag: 6, window: 62) < -0.9)
    }

    @Test(arguments: [0.05, 1.0, 40.0])
    func periodicityDoesNotDependOnAmplitude(scale: Double) {
        let f: (Int) -> Double = { sin(2 * .pi * Double($0) / 14) + 0.5 * sin(2 * .pi * Double($0) / 5.3) }
        var reference = Self.history(f)
        var scaled = Self.history { scale * f($0) }
        let a = reference.periodicity(period: 14, tolerance: 0.15, window: 62)
        let b = scaled.periodicity(period: 14, tolerance: 0.15, window: 62)
        #expect(abs(a - b) < 1e-9, "\(a) vs \(b)")
    }

    @Test func noiseScoresLow() {
        var g = SplitMix64(seed: 11)
        var h = Self.history { _ in Double.random(in: -1...1, using: &g) }
        #expect(h.periodicity(period: 13, tolerance: 0.15, window: 62) < 0.5)
    }

    @Test func theWindowOnlySeesTheNewestValues() {
        // 150 values of a clean sine, then 70 of noise: over a 62-value window only noise is seen.
        var g = SplitMix64(seed: 5)
        var h = StepSignalHistory()
        for i in 0..<150 { h.push(sin(2 * .pi * Double(i) / 12)) }
        for _ in 0..<70 { h.push(Double.random(in: -1...1, using: &g)) }
        #expect(h.periodicity(period: 12, tolerance: 0.1, window: 62) < 0.5)
        h.reset()
        #expect(h.autocorrelation(lag: 5, window: 62) == 0)   // too few values after a reset
    }

    @Test func otherWindowsAreConvertedToTheSameEvidenceAsTheReference() throws {
        var g = SplitMix64(seed: 3)
        var h = Self.history { sin(2 * .pi * Double($0) / 12) + Double.random(in: -0.8...0.8, using: &g) }
        let lag = 12
        // Over the reference window itself the measure is the plain correlation.
        let raw62 = h.autocorrelation(lag: lag, window: 62)
        #expect(abs(h.periodicity(period: 12, tolerance: 0, window: 62, referenceWindow: 62) - Swift.max(raw62, h.autocorrelation(lag: 24, window: 62))) < 1e-12)
        // Over a shorter window (fewer pairs) the same correlation is weaker evidence, over a longer
        // one stronger: equal Fisher z-score atanh(r)·√(pairs − 3).
        for window in [45, 100] {
            let raw = h.autocorrelation(lag: lag, window: window)
            let expected = tanh(atanh(raw) * (Double(window - lag - 3) / Double(62 - lag - 3)).squareRoot())
            let converted = h.periodicity(period: 12, tolerance: 0, window: window, referenceWindow: 62)
            let stride = tanh(atanh(h.autocorrelation(lag: 24, window: window)) * (Double(window - 24 - 3) / Double(62 - 24 - 3)).squareRoot())
            #expect(abs(converted - Swift.max(expected, stride)) < 1e-9)
            if window < 62 { #expect(expected < raw) } else { #expect(expected > raw) }
        }
        var c = StepCounterConfiguration()
        c.minPeriodicity = 1.5
        #expect(throws: StepCounterError.self) { try c.validate() }
    }
}
