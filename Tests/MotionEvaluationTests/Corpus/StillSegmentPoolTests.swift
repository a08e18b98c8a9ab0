import MotionCore
@testable import MotionEvaluation
import Testing

/// The still pieces of the bout test: handed out in turn, cut from quiet stretches and labelled runs.
struct StillSegmentPoolTests {
    /// `seconds` of samples at `rateHz` from `start` s, |a| = `level` (+ `wiggle` on every other sample).
    static func samples(seconds: Double, rateHz: Double = 50, start: Double = 0, level: Double = 9.81, wiggle: Double = 0) -> [Sample] {
        (0..<Int(seconds * rateHz)).map { i in
            Sample(timestamp: Int64(((start + Double(i) / rateHz) * 1e9).rounded()), accel: Vector3(0, 0, level + (i % 2 == 0 ? wiggle : -wiggle)))
        }
    }

    @Test func piecesAreTakenInTurnAndContinueWhereTheirSegmentWasCut() throws {
        var pool = StillSegmentPool([.init(source: "a", samples: Self.samples(seconds: 10)),
                                     .init(source: "short", samples: Self.samples(seconds: 2)),
                                     .init(source: "b", samples: Self.samples(seconds: 10, start: 100))])
        let d: Int64 = 3_000_000_000
        let firstPiece = pool.take(duration: d)
        let first = try #require(firstPiece)
        let secondPiece = pool.take(duration: d)
        let second = try #require(secondPiece)
        let thirdPiece = pool.take(duration: d)
        let third = try #require(thirdPiece)
        // "short" is too short for 3 s and is skipped.
        #expect([first.source, second.source, third.source] == ["a", "b", "a"])
        #expect(first.samples.first!.timestamp == 0 && first.samples.last!.timestamp >= d)
        #expect(second.samples.first!.timestamp == 100_000_000_000)
        // The second piece of "a" starts where the first ended.
        #expect(third.samples.first!.timestamp <= d && third.samples.last!.timestamp >= 2 * d)
        // "a" has 10 s: the fourth 3 s piece of it no longer fits after 9 s and wraps to its start.
        _ = pool.take(duration: d); _ = pool.take(duration: d)
        let wrappedPiece = pool.take(duration: d)
        let wrapped = try #require(wrappedPiece)
        #expect(wrapped.source == "b")
        let againAPiece = pool.take(duration: d)
        let againA = try #require(againAPiece)
        #expect(againA.source == "a" && againA.samples.first!.timestamp == 0)
        let none = pool.take(duration: 60_000_000_000)
        #expect(none == nil)
    }

    @Test func quietStretchesLeaveOutTheMovingSeconds() {
        // 20 s quiet, 2 s of motion (±1 m/s²), 15 s quiet, 2 s motion, 5 s quiet (too short).
        let parts = [Self.samples(seconds: 20), Self.samples(seconds: 2, start: 20, wiggle: 1),
                     Self.samples(seconds: 15, start: 22), Self.samples(seconds: 2, start: 37, wiggle: 1), Self.samples(seconds: 5, start: 39)]
        let stretches = StillSegmentPool.quietStretches(parts.flatMap { $0 })
        #expect(stretches.count == 2)
        #expect(stretches.allSatisfy { s in s.allSatisfy { abs($0.accel.z - 9.81) < 1e-9 } })
        #expect(stretches.map(\.count) == [1000, 750])
    }

    @Test func labelledRunsKeepTheWantedPosturesTrimmed() {
        let s = Self.samples(seconds: 30)
        // 0-10 s sitting, 10-12 s walking, 12-20 s standing, 20-26 s sitting (too short once
        // trimmed), then unlabelled.
        let labels: [String?] = s.indices.map { i in
            let t = Double(i) / 50
            return t < 10 ? "sitting" : t < 12 ? "walking" : t < 20 ? "standing" : t < 26 ? "sitting" : nil
        }
        let runs = StillSegmentPool.labelledRuns(s, labels: labels, keeping: ["sitting", "standing"])
        // Sitting trimmed to 1-9 s, standing to 13-19 s; the last sitting run would keep 4 s.
        #expect(runs.count == 2)
        #expect(abs(Double(runs[0].first!.timestamp) / 1e9 - 1) < 0.03 && abs(Double(runs[0].last!.timestamp) / 1e9 - 9) < 0.03)
        #expect(abs(Double(runs[1].first!.timestamp) / 1e9 - 13) < 0.03 && abs(Double(runs[1].last!.timestamp) / 1e9 - 19) < 0.03)
    }
}
