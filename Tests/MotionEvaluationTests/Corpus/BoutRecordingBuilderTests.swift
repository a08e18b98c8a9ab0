import Foundation
import MotionCore
@testable import MotionEvaluation
import Testing

/// The bout test's recordings: bouts of 4-20 true steps cut from a walk, real still pieces between.
struct BoutRecordingBuilderTests {
    /// A walk at 200 Hz with a step every 0.55 s (a 0.15 s pulse), gravity along z; its truth.
    static func walk(steps: Int) -> (samples: [Sample], truth: [Int64]) {
        let period = 0.55, rate = 200.0
        let truth = (0..<steps).map { Int64(((0.3 + Double($0) * period) * 1e9).rounded()) }
        let seconds = 0.3 + Double(steps) * period + 0.5
        let samples = (0..<Int(seconds * rate)).map { i -> Sample in
            let t = Double(i) / rate
            let phase = (t - 0.3).truncatingRemainder(dividingBy: period)
            let pulse = t >= 0.3 && phase >= 0 && phase < 0.15 ? 3 * sin(.pi * phase / 0.15) : 0
            return Sample(timestamp: Int64((t * 1e9).rounded()), accel: Vector3(0.2, 0, 9.8 + pulse - 0.4))
        }
        return (samples, truth)
    }

    /// A still pool: two devices lying differently (gravity along x, and along y, other magnitudes).
    static func pool() -> StillSegmentPool {
        func still(_ g: Vector3, rate: Double, seconds: Double) -> [Sample] {
            (0..<Int(seconds * rate)).map { i in Sample(timestamp: Int64(Double(i) / rate * 1e9), accel: Vector3(g.x, g.y + (i % 2 == 0 ? 0.01 : -0.01), g.z)) }
        }
        return StillSegmentPool([.init(source: "wrist", samples: still(Vector3(9.6, 0, 0), rate: 12.5, seconds: 60)),
                                 .init(source: "waist", samples: still(Vector3(0, 10.1, 0), rate: 50, seconds: 45))])
    }

    @Test func boutsHoldTheirTrueStepsBetweenAlignedStillPieces() throws {
        let (walk, truth) = Self.walk(steps: 120)
        var pool = Self.pool()
        let built = try #require(BoutRecordingBuilder.build(walk: walk, truth: truth, walkIndex: 3, pool: &pool))
        // Lengths follow the schedule, within 4-20, and every true step used is in one bout.
        #expect(built.bouts.map(\.truth) == built.bouts.indices.map { BoutRecordingBuilder.boutLength(walk: 3, bout: $0) })
        #expect(built.bouts.allSatisfy { BoutRecordingBuilder.boutLengths.contains($0.truth) })
        #expect(built.truth.count == built.bouts.map(\.truth).reduce(0, +))
        #expect(built.truth.count <= truth.count - 2 * BoutRecordingBuilder.skippedSteps)
        var k = 0
        for b in built.bouts {
            let steps = built.truth[k..<(k + b.truth)]
            #expect(steps.allSatisfy { $0 > b.start && $0 < b.end }, "bout \(b)")
            k += b.truth
        }
        // The clock starts at 0 and strictly increases.
        #expect(built.samples.first!.timestamp == 0)
        #expect(zip(built.samples, built.samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        // Pauses: one of the scheduled durations (to one sample interval), still pieces turned onto
        // the walk's gravity; each bout starts and ends at it (the fade).
        let g = try #require(MeanAcceleration.of(walk))
        var previousEnd: Int64 = -5_000_000
        for (i, b) in built.bouts.enumerated() {
            let pause = Double(b.start - previousEnd) / 1e9
            let expected = BoutRecordingBuilder.pauseSeconds[(3 + i) % BoutRecordingBuilder.pauseSeconds.count]
            #expect(abs(pause - expected) < 0.02, "pause before bout \(i): \(pause) s, expected \(expected)")
            let still = built.samples.filter { $0.timestamp > previousEnd && $0.timestamp < b.start }
            let m = try #require(MeanAcceleration.of(still))
            #expect(abs(m.x - g.x) < 0.01 && abs(m.y - g.y) < 0.01 && abs(m.z - g.z) < 0.01, "still piece \(i): \(m) vs \(g)")
            for t in [b.start, b.end] {
                let a = try #require(built.samples.first { $0.timestamp == t }).accel
                #expect(abs(a.x - g.x) < 1e-9 && abs(a.z - g.z) < 1e-9)
            }
            previousEnd = b.end
        }
    }

    @Test func withoutStillPiecesOrStepsThereIsNoRecording() {
        let (walk, truth) = Self.walk(steps: 40)
        var empty = StillSegmentPool([])
        #expect(BoutRecordingBuilder.build(walk: walk, truth: truth, walkIndex: 0, pool: &empty) == nil)
        var pool = Self.pool()
        #expect(BoutRecordingBuilder.build(walk: walk, truth: Array(truth.prefix(6)), walkIndex: 0, pool: &pool) == nil)
    }

    @Test func everyLengthOf4To20ComesOncePer17Bouts() {
        for w in 0..<5 {
            #expect(Set((0..<17).map { BoutRecordingBuilder.boutLength(walk: w, bout: $0) }) == Set(4...20))
        }
    }
}
