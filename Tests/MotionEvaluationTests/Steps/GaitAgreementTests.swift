import MotionAnalysis
import Testing
@testable import MotionEvaluation

/// The counter against the classifier: silences in gait and steps outside it, on hand-made timelines.
struct GaitAgreementTests {
    static let s: Int64 = 1_000_000_000

    static func segment(_ a: Int64, _ b: Int64, _ label: ActivityClass) -> ActivitySegment {
        ActivitySegment(start: a * s, end: b * s, label: label, confidence: 90, announced: a * s)
    }

    @Test func silencesAndStepsOutsideGaitAreCounted() {
        // still 0-10, walking 10-30, still 30-40. Steps every 0.5 s in 12-20 and 25-29, two in the still.
        let timeline = ActivityTimeline(segments: [Self.segment(0, 10, .still), Self.segment(10, 30, .walking), Self.segment(30, 40, .still)])
        var steps: [Int64] = [3 * Self.s]
        steps += Array(stride(from: 12 * Self.s, through: 20 * Self.s, by: Int64.Stride(Self.s / 2)))
        steps += Array(stride(from: 25 * Self.s, through: 29 * Self.s, by: Int64.Stride(Self.s / 2)))
        steps.append(35 * Self.s)
        let g = GaitAgreement(steps: steps, timeline: timeline)
        #expect(g.gaitSeconds == 20)
        // Silences over 2 s: 10-12 is exactly 2 s (not counted), 20-25 (5 s); 29-30 is 1 s.
        #expect(g.silentGaitSeconds == 5 && g.longestSilenceSeconds == 5)
        #expect(g.stepsOutsideGait == 2 && g.steps == steps.count)
        #expect(abs(g.silentPercent - 25) < 1e-9)
    }

    @Test func aWalkWithoutStepsIsOneSilenceAndPoolingAdds() {
        let timeline = ActivityTimeline(segments: [Self.segment(0, 8, .running)])
        let g = GaitAgreement(steps: [], timeline: timeline)
        #expect(g.silentGaitSeconds == 8 && g.stepsOutsideGait == 0 && g.outsidePercent == 0)
        let p = GaitAgreement.pooled([g, GaitAgreement(steps: [Self.s], timeline: ActivityTimeline(segments: [Self.segment(0, 2, .still)]))])
        #expect(p.gaitSeconds == 8 && p.silentGaitSeconds == 8 && p.stepsOutsideGait == 1 && p.steps == 1)
    }
}
