@testable import MotionAnalysis
import Testing

/// The timeline's derived figures.
struct ActivityTimelineTests {
    let s: Int64 = 1_000_000_000
    var timeline: ActivityTimeline {
        ActivityTimeline(segments: [
            ActivitySegment(start: 0, end: 10 * s, label: .still, confidence: 80, announced: 0),
            ActivitySegment(start: 10 * s, end: 25 * s, label: .walking, confidence: 90, announced: 12 * s),
            ActivitySegment(start: 25 * s, end: 30 * s, label: .still, confidence: 70, announced: 28 * s),
        ])
    }

    @Test func secondsPerClassHasEveryClass() {
        let t = timeline.secondsPerClass
        #expect(t.map(\.0) == ActivityClass.allCases)
        #expect(t.map(\.1) == [15, 15, 0, 0, 0, 0])
        #expect(timeline.seconds(in: .walking) == 15 && timeline.changes == 2)
    }

    @Test func labelAtAndOverlap() {
        #expect(timeline.label(at: 0) == .still)
        #expect(timeline.label(at: 10 * s) == .walking, "a boundary belongs to the later segment")
        #expect(timeline.label(at: 30 * s) == .still)
        #expect(timeline.label(at: 31 * s) == nil && timeline.label(at: -1) == nil)
        #expect(timeline.seconds(from: 5 * s, to: 27 * s) == [7, 15, 0, 0, 0, 0])
        #expect(ActivityTimeline(segments: []).isEmpty && !timeline.isEmpty)
    }

    @Test func classIndexRoundTrips() {
        for c in ActivityClass.allCases { #expect(ActivityClass(index: c.index) == c) }
        #expect(ActivityClass.allCases.filter { !$0.allowsSteps } == [.vehicle])
    }
}
