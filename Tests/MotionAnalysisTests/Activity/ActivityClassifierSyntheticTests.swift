import Foundation
@testable import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// The classifier on synthetic streams whose activity is known: each class is recognised, at
/// every rate from 12.5 to 400 Hz and in any orientation; hysteresis, back-dating and gaps behave
/// as documented; the timeline is contiguous.
struct ActivityClassifierSyntheticTests {
    typealias S = ActivityStreams

    @Test(arguments: [12.5, 26, 50, 100, 200, 400])
    func walkingIsWalkingAtEveryRate(rateHz: Double) throws {
        let t = try S.timeline(SyntheticMotion.walking(stepHz: 1.8, seconds: 60, rateHz: rateHz))
        #expect(S.fraction(t, .walking, from: 5, to: 59) == 1, "\(t.segments)")
        #expect(t.segments.allSatisfy { $0.label == .walking || $0.label == .unknown })
    }

    @Test func stillIsStill() throws {
        let t = try S.timeline(SyntheticMotion.still(seconds: 60))
        #expect(t.segments.count == 1 && t.segments[0].label == .still, "\(t.segments)")
        #expect(t.segments[0].confidence > 90)
    }

    @Test func runningNeedsRunningImpacts() throws {
        let run = try S.timeline(SyntheticMotion.walking(stepHz: 2.8, seconds: 60, amplitude: 24))
        // Running needs 3 s of evidence, walking 0.8 s: windows of this signal near the running
        // threshold may first favour walking twice, so the first seconds may be walking.
        #expect(S.fraction(run, .running, from: 10, to: 59) == 1, "\(run.segments)")
        #expect(S.fraction(run, .walking, from: 6, to: 10) + S.fraction(run, .running, from: 6, to: 10) == 1, "\(run.segments)")
        // The same cadence with walking impacts is walking (fast walking, not running).
        let brisk = try S.timeline(SyntheticMotion.walking(stepHz: 2.2, seconds: 60, amplitude: 4))
        #expect(S.fraction(brisk, .walking, from: 5, to: 59) == 1, "\(brisk.segments)")
    }

    /// A vehicle is recognised after tens of seconds, back-dated to the ride's start, and a stop of
    /// a minute (a red light) stays `vehicle`.
    @Test func vehicleWithAStopAtALight() throws {
        let samples = S.concatenated([S.ride(seconds: 90), SyntheticMotion.still(seconds: 60, rateHz: 100), S.ride(seconds: 60, seed: 12)], rateHz: 100)
        let t = try S.timeline(samples)
        #expect(t.segments.map(\.label) == [.vehicle], "\(t.segments)")
        let v = try #require(t.segments.first)
        #expect(Double(v.announced) / 1e9 >= 15, "vehicle needs tens of seconds of evidence")
        #expect(v.start == samples[0].timestamp, "back-dated to the ride's start")
    }

    /// Walking after standing: announced within 5 s of the onset, the segment back-dated to
    /// within 2.5 s of it.
    @Test func walkingOnsetIsAnnouncedSoonAndBackDated() throws {
        let samples = S.concatenated([SyntheticMotion.still(seconds: 30, rateHz: 100), SyntheticMotion.walking(stepHz: 1.8, seconds: 30)], rateHz: 100)
        let t = try S.timeline(samples)
        #expect(t.segments.map(\.label) == [.still, .walking], "\(t.segments)")
        let walk = t.segments[1]
        let onset = 30.0
        #expect(Double(walk.announced) / 1e9 - onset <= 5)
        #expect(abs(Double(walk.start) / 1e9 - onset) <= 2.5, "\(walk)")
        #expect(walk.announced > walk.start)
    }

    /// A few seconds of walking-like motion do not turn a vehicle into walking (bumps).
    @Test func briefGaitInAVehicleStaysVehicle() throws {
        let samples = S.concatenated([S.ride(seconds: 60), SyntheticMotion.walking(stepHz: 1.8, seconds: 5), S.ride(seconds: 60, seed: 13)], rateHz: 100)
        let t = try S.timeline(samples)
        #expect(t.segments.map(\.label) == [.vehicle], "\(t.segments)")
    }

    /// A gap longer than the bridge is an `unknown` segment exactly covering it; the segments are
    /// contiguous from the first to the last sample.
    @Test func gapBecomesUnknownAndTimelineIsContiguous() throws {
        let walk = SyntheticMotion.walking(stepHz: 1.8, seconds: 30)
        let samples = walk + S.shifted(SyntheticMotion.walking(stepHz: 1.8, seconds: 30, seed: 5), to: 40)
        let t = try S.timeline(samples)
        let gap = try #require(t.segments.first { $0.label == .unknown && $0.confidence == 0 && $0.durationSeconds > 9 })
        #expect(gap.start == walk[walk.count - 1].timestamp)
        #expect(gap.end == samples[walk.count].timestamp)
        #expect(t.segments.first?.start == samples.first?.timestamp)
        #expect(t.segments.last?.end == samples.last?.timestamp)
        for (a, b) in zip(t.segments, t.segments.dropFirst()) {
            #expect(a.end == b.start)
            #expect(a.label != b.label, "neighbours are merged")
        }
        #expect(S.fraction(t, .walking, from: 45, to: 69) == 1)
    }

    /// Orientation: the same walk in six fixed orientations gives the same class everywhere.
    @Test(arguments: 0..<6)
    func orientationDoesNotMatter(turn: Int) throws {
        let angle = Double(turn) * .pi / 3
        let samples = SyntheticMotion.walking(stepHz: 1.7, seconds: 40).map {
            Sample(timestamp: $0.timestamp, accel: SyntheticMotion.rotated($0.accel, angle: angle))
        }
        let t = try S.timeline(samples)
        #expect(S.fraction(t, .walking, from: 5, to: 39) == 1, "\(t.segments)")
    }

    /// The gyroscope vetoes still when the sensor turns without moving its centre.
    @Test func rotationVetoesStillWithAGyroscope() throws {
        let samples = SyntheticMotion.still(seconds: 40, rateHz: 100).enumerated().map { i, s in
            Sample(timestamp: s.timestamp, accel: s.accel, gyro: Vector3(0.8 * sin(Double(i) / 30), 0, 0))
        }
        #expect(try S.timeline(samples, gyroscope: false).segments.map(\.label) == [.still])
        #expect(!(try S.timeline(samples, gyroscope: true).segments.contains { $0.label == .still }))
    }

    /// A stream without gravity (linear acceleration) is never called still, walking or a vehicle.
    @Test func noGravityIsUnknown() throws {
        let samples = (0..<3000).map { i -> Sample in
            let t = Double(i) / 100
            let phase = (t * 1.8).truncatingRemainder(dividingBy: 1)
            let pulse = phase < 0.4 ? 0.5 * (1 - cos(2 * .pi * phase / 0.4)) : 0
            return Sample(timestamp: Int64(i) * 10_000_000, accel: Vector3(0.2 * sin(t), 0, 3 * (pulse - 0.2)))
        }
        #expect(try S.timeline(samples).segments.map(\.label) == [.unknown])
    }

    /// Confidence is a mean over the segment's windows, within 0...100.
    @Test func confidenceIsBounded() throws {
        let samples = S.concatenated([SyntheticMotion.still(seconds: 20, rateHz: 100), SyntheticMotion.walking(stepHz: 1.8, seconds: 20), S.ride(seconds: 40)], rateHz: 100)
        let t = try S.timeline(samples)
        #expect(t.segments.allSatisfy { $0.confidence >= 0 && $0.confidence <= 100 && $0.confidence.isFinite })
        #expect(t.secondsPerClass.count == 6)
        #expect(abs(t.secondsPerClass.map(\.1).reduce(0, +) - Double(samples.last!.timestamp - samples[0].timestamp) / 1e9) < 1e-6)
    }
}
