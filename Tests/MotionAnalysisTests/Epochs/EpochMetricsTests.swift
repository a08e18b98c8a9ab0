import Foundation
import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// The acceleration metrics (ENMO, MAD, the non-wear pieces), GGIR's non-wear rule and the epoch
/// summary, on exact inputs and on real recordings.
@Suite struct EpochMetricsTests {
    static let g = AccelerationMetricsAnalyzer.standardGravity

    /// Runs `samples` through the analyzer in one batch and finishes it.
    static func metrics(_ samples: [Sample]) throws -> AccelerationMetrics {
        var pipeline = AnalysisPipeline()
        let h = pipeline.add(AccelerationMetricsAnalyzer())
        if !samples.isEmpty { try pipeline.consume(SampleBatch(samples: samples, deliveredAt: samples.last!.timestamp)) }
        try pipeline.finish()
        return pipeline.result(of: h)
    }

    @Test func axisStatisticsMergeExactly() {
        var rng = SplitMix64(seed: 7)
        var values: [Double] = []
        for _ in 0..<5000 { values.append(1 + Double(rng.next() % 1000) / 1e5) }
        var whole = AxisStatistics()
        for v in values { whole.add(v) }
        var merged = AxisStatistics()
        for chunk in stride(from: 0, to: values.count, by: 777) {
            var part = AxisStatistics()
            for v in values[chunk..<min(values.count, chunk + 777)] { part.add(v) }
            merged = merged.merged(with: part)
        }
        let mean = values.reduce(0, +) / Double(values.count)
        let sd = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
        #expect(abs(whole.standardDeviation - sd) < 1e-12)
        #expect(abs(merged.standardDeviation - sd) < 1e-12)
        #expect(abs(merged.mean - mean) < 1e-12)
        #expect(merged.range == values.max()! - values.min()!)
        #expect(merged.count == values.count)
    }

    /// ENMO of a device at rest is 0; of a known magnitude, |a| - 1 g. MAD of a square wave around
    /// 1 g of amplitude A is A.
    @Test func enmoAndMADOfKnownSignals() throws {
        var samples: [Sample] = []
        // 60 s at 10 Hz: |a| alternates 1.2 g and 1.0 g (mean 1.1 g, MAD 0.1 g, ENMO 0.1 g).
        for i in 0..<600 {
            let m = i % 2 == 0 ? 1.2 : 1.0
            samples.append(Sample(timestamp: Int64(i) * 100_000_000, accel: Vector3(0, 0, m * Self.g)))
        }
        let r = try Self.metrics(samples)
        #expect(r.minutes.count == 1)
        let minute = r.minutes[0]
        #expect(minute.samples == 600)
        #expect(abs(minute.enmoSum / 600 - 0.1) < 1e-12)
        #expect(minute.madWindows == 12)
        #expect(abs(minute.madSum / 12 - 0.1) < 1e-12)
    }

    /// A minute boundary splits samples by their timestamps, and a 5 s window belongs to the minute
    /// it starts in; times before the clock's zero fall in negative minutes.
    @Test func minutesFollowTheTimestamps() throws {
        let samples = stride(from: -30, to: 90, by: 1).map { Sample(timestamp: Int64($0) * 1_000_000_000, accel: Vector3(0, 0, Self.g)) }
        let r = try Self.metrics(samples)
        #expect(r.minutes.map(\.index) == [-1, 0, 1])
        #expect(r.minutes.map(\.samples) == [30, 60, 30])
        #expect(r.minutes.map(\.madWindows) == [6, 12, 6])
    }

    /// Samples that go back in time (an interruption's new clock) are added to their own minute.
    @Test func aTimestampThatGoesBackIsMerged() throws {
        let a = (0..<120).map { Sample(timestamp: Int64($0) * 1_000_000_000, accel: Vector3(0, 0, Self.g)) }
        let b = (0..<30).map { Sample(timestamp: Int64($0) * 1_000_000_000, accel: Vector3(0, 0, 1.1 * Self.g)) }
        let r = try Self.metrics(a + b)
        #expect(r.minutes.map(\.index) == [0, 1])
        #expect(r.minutes[0].samples == 90)
        #expect(abs(r.minutes[0].enmoSum - 30 * 0.1) < 1e-9)
    }

    /// GGIR's rule on exact signals: still on all axes is non-wear; motion on two axes is wear.
    @Test func nonWearRuleOnExactSignals() throws {
        func hour(_ make: (Int) -> Vector3, from: Int64 = 0, hours: Int = 3) -> [Sample] {
            (0..<(hours * 3600)).map { Sample(timestamp: from + Int64($0) * 1_000_000_000, accel: make($0)) }
        }
        // Noise of ±5 mg on every axis: SD ~5 mg, range 10 mg.
        let still = try Self.metrics(hour { i in Vector3(0.005 * Double(i % 3 - 1) * Self.g, 0.005 * Double((i / 3) % 3 - 1) * Self.g, Self.g) })
        #expect(NonWearRule().nonWearBlocks(still) == Array(0..<12))
        // x and y swing ±0.1 g: worn.
        let worn = try Self.metrics(hour { i in Vector3(0.1 * Double(i % 2) * Self.g, 0.1 * Double((i / 2) % 2) * Self.g, Self.g) })
        #expect(NonWearRule().nonWearBlocks(worn).isEmpty)
        // Only x moves: 2 of 3 axes still is non-wear by default, wear when all 3 must be still.
        let oneAxis = try Self.metrics(hour { i in Vector3(0.1 * Double(i % 2) * Self.g, 0, Self.g) })
        #expect(NonWearRule().nonWearBlocks(oneAxis).count == 12)
        var strict = NonWearRule()
        strict.axes = 3
        #expect(strict.nonWearBlocks(oneAxis).isEmpty)
        #expect(NonWearRule().invalidReason == nil)
        strict.windowMinutes = 50
        #expect(strict.invalidReason != nil)
    }

    /// Real still pieces (a phone lying still, ST's stationary log; a watch on a table, Bangle's
    /// static recording) tiled to three hours are non-wear throughout; a real walk tiled the same
    /// way is wear throughout; and a walk followed by a still device is wear until the first
    /// 15-minute block whose 60-minute window holds no walking (the rule's own geometry).
    @Test(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
    func nonWearOnTiledRealPieces() throws {
        func tiled(_ path: String, from: Int64, seconds: Int64) throws -> [Sample] {
            let piece = try Recording.read(path: TestPaths.datasetsRoot + "/" + path).samples
            let first = piece.first!.timestamp
            let span = piece.last!.timestamp - first + (piece[1].timestamp - first)
            var out: [Sample] = []
            var offset: Int64 = 0
            while offset < seconds * 1_000_000_000 {
                for s in piece where s.timestamp - first + offset < seconds * 1_000_000_000 {
                    out.append(Sample(timestamp: from + s.timestamp - first + offset, accel: s.accel))
                }
                offset += span
            }
            return out
        }
        let hours3: Int64 = 3 * 3600
        for still in ["activity/st/mobile_stationary.csv", "steps/bangle/0_HughB-static.csv"] {
            let m = try Self.metrics(try tiled(still, from: 0, seconds: hours3))
            #expect(NonWearRule().nonWearBlocks(m) == Array(0..<12), "\(still)")
        }
        for walk in ["activity/st/mobile_walking.csv", "steps/bangle/150_2.csv"] {
            let m = try Self.metrics(try tiled(walk, from: 0, seconds: hours3))
            #expect(NonWearRule().nonWearBlocks(m).isEmpty, "\(walk)")
        }
        // Two hours of walking, then three of a phone lying still.
        let boundary: Int64 = 2 * 3600
        let samples = try tiled("activity/st/mobile_walking.csv", from: 0, seconds: boundary)
            + tiled("activity/st/mobile_stationary.csv", from: boundary * 1_000_000_000, seconds: hours3)
        let m = try Self.metrics(samples)
        // Block b's window starts 22.5 min before it: the first block whose window starts at or
        // after the boundary (120 min) is b = 10 (150 min); from there on to the end, non-wear.
        #expect(NonWearRule().nonWearBlocks(m) == Array(10..<20))
        let summary = EpochSummary(length: .day, utcOffsetSeconds: 0, metrics: m, steps: [], timeline: ActivityTimeline(segments: []), nonWear: NonWearRule())
        #expect(summary.epochs.count == 1)
        #expect(summary.epochs[0].dataMinutes == 300)
        #expect(summary.epochs[0].wearMinutes == 150)
        #expect(summary.epochs[0].nonWearMinutes == 150)
    }

    /// Epochs are cut on the local clock: with a -06:00 offset, a day starts at 06:00 UTC; steps,
    /// cadence and activity minutes land in their epochs.
    @Test func epochsOnTheLocalClock() throws {
        // 20 minutes around 06:00 UTC on 2021-12-21 (midnight at -06:00), 1 Hz.
        let midnight: Int64 = 1_640_066_400 * 1_000_000_000
        let start = midnight - 10 * 60 * 1_000_000_000
        let samples = (0..<1200).map { Sample(timestamp: start + Int64($0) * 1_000_000_000, accel: Vector3(0, 0, Self.g)) }
        let m = try Self.metrics(samples)
        // 100 steps in the minute before local midnight, 30 in the one after.
        let steps = (0..<100).map { midnight - 60_000_000_000 + Int64($0) * 600_000_000 } + (0..<30).map { midnight + Int64($0) * 2_000_000_000 }
        let timeline = ActivityTimeline(segments: [
            ActivitySegment(start: start, end: midnight - 60_000_000_000, label: .still, confidence: 90, announced: start),
            ActivitySegment(start: midnight - 60_000_000_000, end: midnight + 60_000_000_000, label: .walking, confidence: 90, announced: midnight),
            ActivitySegment(start: midnight + 60_000_000_000, end: samples.last!.timestamp, label: .still, confidence: 90, announced: midnight),
        ])
        let days = EpochSummary(length: .day, utcOffsetSeconds: -6 * 3600, metrics: m, steps: steps, timeline: timeline, nonWear: NonWearRule())
        #expect(days.epochs.map(\.start) == [midnight - 86_400_000_000_000, midnight])
        #expect(days.epochs.map(\.steps) == [100, 30])
        #expect(days.epochs.map(\.dataMinutes) == [10, 10])
        #expect(days.epochs.map(\.cadencePeak) == [100, 30])
        #expect(days.epochs[0].cadenceMedian == 100)
        #expect(days.epochs[1].cadenceMedian == 30)
        #expect(abs(days.epochs[0].activityMinutes[ActivityClass.walking.index] - 1) < 1e-12)
        #expect(abs(days.epochs[1].activityMinutes[ActivityClass.walking.index] - 1) < 1e-12)
        #expect(abs(days.epochs[0].activityMinutes[ActivityClass.still.index] - 9) < 1e-12)
        let utcDays = EpochSummary(length: .day, utcOffsetSeconds: 0, metrics: m, steps: steps, timeline: timeline, nonWear: NonWearRule())
        #expect(utcDays.epochs.count == 1)
        let minutes = EpochSummary(length: .minute, utcOffsetSeconds: -6 * 3600, metrics: m, steps: steps, timeline: timeline, nonWear: NonWearRule())
        #expect(minutes.epochs.count == 20)
        #expect(minutes.epochs.reduce(0) { $0 + $1.steps } == 130)
        let hours = EpochSummary(length: .hour, utcOffsetSeconds: 5 * 3600 + 30 * 60, metrics: m, steps: steps, timeline: timeline, nonWear: NonWearRule())
        // At +05:30 the local hours start at half past the UTC hour: 05:50-06:10 UTC is one hour (05:30-06:30 UTC).
        #expect(hours.epochs.count == 1)
    }

    /// Orientations spread over the sphere (unit vectors), deterministic.
    static func orientations(_ n: Int) -> [(Double, Double, Double)] {
        (0..<n).map { i in
            let z = 1 - 2 * (Double(i) + 0.5) / Double(n)
            let r = (1 - z * z).squareRoot()
            let phi = Double(i) * 2.399963229728653
            return (r * cos(phi), r * sin(phi), z)
        }
    }

    /// The sphere fit recovers a known offset and scale from still windows; an uncovered sphere or
    /// too few windows are refused with the reason.
    @Test func calibrationRecoversAKnownDistortion() {
        let offset = [0.02, -0.03, 0.05], scale = [1.02, 0.98, 1.01]
        let raw = Self.orientations(40).map { p -> (Double, Double, Double) in
            (p.0 / scale[0] - offset[0], p.1 / scale[1] - offset[1], p.2 / scale[2] - offset[2])
        }
        let c = AccelerationCalibration.fit(raw)
        #expect(c.isApplied, "\(c.reason ?? "")")
        for k in 0..<3 {
            #expect(abs(c.offset[k] - offset[k]) < 1e-4, "offset \(k): \(c.offset)")
            #expect(abs(c.scale[k] - scale[k]) < 1e-4, "scale \(k): \(c.scale)")
        }
        #expect(c.errorBefore > 0.02)
        #expect(c.errorAfter < 1e-4)
        let flat = AccelerationCalibration.fit(Array(repeating: (0.0, 0.0, 1.0), count: 50))
        #expect(!flat.isApplied && flat.reason!.contains("sphere"))
        #expect(!AccelerationCalibration.fit(Array(raw.prefix(5))).isApplied)
    }

    /// The still windows are found in a real recording of a device at rest and not in a walk.
    @Test(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)))
    func stillWindowsOfRealRecordings() throws {
        func windows(_ path: String) throws -> Int {
            var pipeline = AnalysisPipeline()
            let h = pipeline.add(StillWindowAnalyzer())
            let r = try Recording.read(path: TestPaths.datasetsRoot + "/" + path)
            try pipeline.consume(SampleBatch(samples: r.samples, deliveredAt: r.samples.last!.timestamp))
            try pipeline.finish()
            return pipeline.result(of: h).values.count
        }
        #expect(try windows("activity/st/mobile_stationary.csv") >= 3)
        #expect(try windows("activity/st/mobile_walking.csv") == 0)
    }
}
