@testable import MotionAnalysis
import Testing

/// Our activity beside a chip's (IIO activity channels).
struct HardwareActivityComparisonTests {
    @Test func modifiersMapToClasses() {
        #expect(HardwareActivityComparison.activityClass(ofModifier: "still") == .still)
        #expect(HardwareActivityComparison.activityClass(ofModifier: "walking") == .walking)
        #expect(HardwareActivityComparison.activityClass(ofModifier: "jogging") == .running)
        #expect(HardwareActivityComparison.activityClass(ofModifier: "running") == .running)
        #expect(HardwareActivityComparison.activityClass(ofModifier: "swimming") == nil)
    }

    @Test func agreementAndSummary() {
        let same = HardwareActivityComparison(ours: .running, hardwareModifier: "jogging")
        #expect(same.agree == true && same.summary == "activity running (hardware: jogging = running, agrees)")
        let differs = HardwareActivityComparison(ours: .vehicle, hardwareModifier: "walking")
        #expect(differs.agree == false && differs.summary.contains("differs"))
        #expect(HardwareActivityComparison(ours: nil, hardwareModifier: "still").agree == nil)
        #expect(HardwareActivityComparison(ours: .still, hardwareModifier: nil).summary == "activity still (hardware: none, not comparable)")
    }
}
