import Foundation
@testable import MotionAnalysis
import MotionCore
import MotionTestSupport

/// Synthetic streams for the activity tests (gravity included, m/s²), built on ``SyntheticMotion``.
enum ActivityStreams {
    /// A vehicle ride: aperiodic broadband vibration (first-order filtered noise, about
    /// 0.25 m/s² rms on every axis) on a sensor at a steady, tilted attitude.
    static func ride(seconds: Double, rateHz: Double = 100, start: Double = 0, seed: UInt64 = 11) -> [Sample] {
        var g = SplitMix64(seed: seed)
        var x = 0.0, y = 0.0, z = 0.0
        return (0..<Int(seconds * rateHz)).map { i in
            x = 0.8 * x + Double.random(in: -0.3...0.3, using: &g)
            y = 0.8 * y + Double.random(in: -0.3...0.3, using: &g)
            z = 0.8 * z + Double.random(in: -0.3...0.3, using: &g)
            let t = start + Double(i) / rateHz
            return Sample(timestamp: Int64((t * 1e9).rounded()), accel: Vector3(2 + x, 1 + y, 9.5 + z))
        }
    }

    /// `samples` moved to start at `start` seconds.
    static func shifted(_ samples: [Sample], to start: Double) -> [Sample] {
        guard let first = samples.first else { return [] }
        let d = Int64((start * 1e9).rounded()) - first.timestamp
        return samples.map { var s = $0; s.timestamp += d; return s }
    }

    /// Concatenates streams, each starting one period after the previous one's last sample.
    static func concatenated(_ parts: [[Sample]], rateHz: Double) -> [Sample] {
        var out: [Sample] = []
        for p in parts {
            let start = out.last.map { Double($0.timestamp) / 1e9 + 1 / rateHz } ?? 0
            out += shifted(p, to: start)
        }
        return out
    }

    /// The timeline of `samples` classified in deliveries of `batch` samples.
    static func timeline(_ samples: [Sample], batch: Int = 100, gyroscope: Bool = false,
                         configuration: ActivityClassifierConfiguration = ActivityClassifierConfiguration()) throws -> ActivityTimeline {
        var c = try ActivityClassifier(configuration: configuration, gyroscope: gyroscope)
        for i in stride(from: 0, to: samples.count, by: batch) {
            let part = Array(samples[i..<min(samples.count, i + batch)])
            _ = try c.process(SampleBatch(samples: part, deliveredAt: part[part.count - 1].timestamp))
        }
        _ = c.finish()
        return c.timeline
    }

    /// Fraction of `[from, to)` seconds that `timeline` labels `label`.
    static func fraction(_ timeline: ActivityTimeline, _ label: ActivityClass, from: Double, to: Double) -> Double {
        timeline.seconds(from: Int64(from * 1e9), to: Int64(to * 1e9))[label.index] / (to - from)
    }
}
