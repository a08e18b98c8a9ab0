import MotionCore
import Testing
@testable import MotionAnalysis

/// What the pipeline hands from one analyzer to the next per delivery.
struct AnalysisOutputTests {
    @Test func unwrappingGivesTheValueOfItsOwnTypeOnly() {
        let outputs: [any AnalysisOutput] = [StepEvents(times: [1, 2]), ActivityUpdate(changes: [5], decidedBefore: 7), NoOutput()]
        #expect(outputs[0].unwrapped(as: StepEvents.self) == StepEvents(times: [1, 2]))
        #expect(outputs[0].unwrapped(as: ActivityUpdate.self) == nil)
        #expect(outputs[1].unwrapped(as: ActivityUpdate.self) == ActivityUpdate(changes: [5], decidedBefore: 7))
        #expect(outputs[1].unwrapped(as: NoOutput.self) == nil)
        #expect(outputs[2].unwrapped(as: NoOutput.self) == NoOutput())
    }

    @Test func activityUpdateFitsAnExistentialsInlineBuffer() {
        // Three words: the pipeline stores each delivery's update as `any AnalysisOutput`
        // without a heap box.
        #expect(MemoryLayout<ActivityUpdate>.size <= 3 * MemoryLayout<Int>.size)
    }

    @Test(arguments: [nil, Int64(0), -1, 123_456_789, Int64.max])
    func decidedBeforeRoundTrips(value: Int64?) {
        var u = ActivityUpdate(decidedBefore: value)
        #expect(u.decidedBefore == value)
        u.decidedBefore = nil
        #expect(u.decidedBefore == nil && u == ActivityUpdate())
        u.decidedBefore = value
        #expect(u == ActivityUpdate(decidedBefore: value))
    }
}
