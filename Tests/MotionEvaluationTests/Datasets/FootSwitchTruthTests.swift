import Testing
@testable import MotionEvaluation

/// ``FootSwitchTruth``: double triggers dropped, missed triggers added, by the file's own times only.
@Suite struct FootSwitchTruthTests {
    /// Steps every `period` ms from 0, `count` of them, in ns.
    static func steady(_ count: Int, period: Int64 = 540) -> [Int64] {
        (0..<Int64(count)).map { $0 * period * 1_000_000 }
    }

    @Test func aSteadyWalkIsLeftAsItIs() {
        let t = Self.steady(40)
        let r = FootSwitchTruth(recorded: t)
        #expect(r.times == t)
        #expect(r.repair == .init(recordedCount: 40, doubleTriggers: 0, missedTriggers: 0))
    }

    @Test(arguments: [0.5, 0.33, 0.0])
    func anEventThatSplitsOneIntervalIsDropped(at fraction: Double) {
        var t = Self.steady(40)
        let extra = t[20] + Int64(fraction * 540e6)
        t.insert(extra, at: 21)
        let r = FootSwitchTruth(recorded: t)
        #expect(r.repair.doubleTriggers == 1)
        #expect(r.repair.missedTriggers == 0)
        #expect(r.times.count == 40)
        #expect(r.repair.repairedCount == 40)
    }

    @Test func aDoubledIntervalGetsTheMissingStepInItsMiddle() {
        var t = Self.steady(40)
        let gone = t.remove(at: 20)
        let r = FootSwitchTruth(recorded: t)
        #expect(r.missedTriggers == [gone])
        #expect(r.doubleTriggers.isEmpty)
        #expect(r.times == Self.steady(40))
    }

    /// A walk that slows down, a pause and the irregular first and last steps are not defects.
    @Test func realChangesOfPaceAreNotRepaired() {
        var t: [Int64] = [0, 800_000_000, 1_300_000_000]  // a long first step
        for _ in 0..<20 { t.append(t.last! + 540_000_000) }
        for _ in 0..<20 { t.append(t.last! + 700_000_000) }  // slower from here on
        t.append(t.last! + 5_000_000_000)                    // a pause
        for _ in 0..<20 { t.append(t.last! + 540_000_000) }
        t.append(t.last! + 1_000_000_000)                    // a long last step
        let r = FootSwitchTruth(recorded: t)
        #expect(r.repair == .init(recordedCount: t.count, doubleTriggers: 0, missedTriggers: 0))
    }

    @Test func shortAndUnsortedFilesDoNotCrash() {
        #expect(FootSwitchTruth(recorded: []).times.isEmpty)
        #expect(FootSwitchTruth(recorded: [5]).times == [5])
        #expect(FootSwitchTruth(recorded: [3, 1, 2]).times == [1, 2, 3])
        let t = Self.steady(30).reversed()
        #expect(FootSwitchTruth(recorded: Array(t)).times == Self.steady(30))
    }
}
