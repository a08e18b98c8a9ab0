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

    /// Stopping at the first lag that reaches a threshold answers "does it reach it?" as the full
    /// search does, on periodic signals, noise and everything between, for any window.
    @Test(arguments: [0.0, 0.3, 0.6, 1.0])
    func stoppingAtAThresholdGivesTheSameAnswer(noise: Double) {
        var g = SplitMix64(seed: 17)
        var h = Self.history { sin(2 * .pi * Double($0) / 13) + noise * Double.random(in: -2...2, using: &g) }
        for window in [30, 45, 62, 100] {
            let full = h.periodicity(period: 13, tolerance: 0.15, window: window, referenceWindow: 62)
            for threshold in [0.2, 0.5, 0.85, 0.95] {
                let quick = h.periodicity(period: 13, tolerance: 0.15, window: window, referenceWindow: 62, reaching: threshold)
                #expect((quick >= threshold) == (full >= threshold), "window \(window), threshold \(threshold): \(quick) vs \(full)")
                #expect(quick <= full)
            }
        }
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

    /// The normalised autocorrelation of the doc comment, computed directly from the values pushed:
    /// r(L) = Σ x[m]·x[m−L] / √(Σ x[m]² · Σ x[m−L]²) over the pairs inside the newest `window` values.
    static func reference(_ pushed: [Double], lag: Int, window: Int) -> Double {
        let x = Array(pushed.suffix(window))
        var ab = 0.0, aa = 0.0, bb = 0.0
        for i in 0..<(x.count - lag) {
            ab += x[i] * x[i + lag]; aa += x[i] * x[i]; bb += x[i + lag] * x[i + lag]
        }
        return ab / (aa * bb).squareRoot()
    }

    @Test func otherWindowsAreConvertedToTheSameEvidenceAsTheReference() throws {
        var g = SplitMix64(seed: 3)
        let pushed = (0..<200).map { sin(2 * .pi * Double($0) / 12) + Double.random(in: -0.8...0.8, using: &g) }
        var h = Self.history { pushed[$0] }
        // The measure itself against a direct computation, at the step and the stride lag.
        for (lag, window) in [(12, 62), (24, 62), (12, 45), (24, 100)] {
            #expect(abs(h.autocorrelation(lag: lag, window: window) - Self.reference(pushed, lag: lag, window: window)) < 1e-12)
        }
        // Over the reference window itself the periodicity is the plain correlation (the better of
        // the step and stride lags, tolerance 0).
        let plain62 = Swift.max(Self.reference(pushed, lag: 12, window: 62), Self.reference(pushed, lag: 24, window: 62))
        #expect(abs(h.periodicity(period: 12, tolerance: 0, window: 62, referenceWindow: 62) - plain62) < 1e-12)
        // Over a shorter window (fewer pairs) the same correlation is weaker evidence, over a longer
        // one stronger: equal Fisher z-score atanh(r)·√(pairs − 3).
        for window in [45, 100] {
            func converted(_ lag: Int) -> Double {
                tanh(atanh(Self.reference(pushed, lag: lag, window: window)) * (Double(window - lag - 3) / Double(62 - lag - 3)).squareRoot())
            }
            let measured = h.periodicity(period: 12, tolerance: 0, window: window, referenceWindow: 62)
            #expect(abs(measured - Swift.max(converted(12), converted(24))) < 1e-9)
            let plain = Swift.max(Self.reference(pushed, lag: 12, window: window), Self.reference(pushed, lag: 24, window: window))
            #expect(plain > 0.3)
            if window < 62 { #expect(measured < plain) } else { #expect(measured > plain) }
        }
        var c = StepCounterConfiguration()
        c.minPeriodicity = 1.5
        #expect(throws: StepCounterError.self) { try c.validate() }
    }
}
