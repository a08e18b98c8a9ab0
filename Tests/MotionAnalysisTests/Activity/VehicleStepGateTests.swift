@testable import MotionAnalysis
import Testing

/// The gate between the step counter and the activity classifier: steps are held until their
/// time is decided, then counted, or dropped inside a vehicle; the count never goes down.
struct VehicleStepGateTests {
    typealias Span = ActivityUpdate.VehicleSpan
    let s: Int64 = 1_000_000_000

    @Test func stepsWaitForTheDecisionThenAreCountedOrDropped() {
        var gate = VehicleStepGate()
        var counted: [Int64] = []
        // Nothing decided yet: held.
        gate.pass([1 * s, 2 * s], ActivityUpdate(decidedBefore: 0), deliveredAt: 3 * s, into: &counted)
        #expect(counted.isEmpty && gate.heldCount == 2)
        // [0, 1.5 s) decided not vehicle: the first step counts.
        gate.pass([], ActivityUpdate(vehicleSpans: [Span(start: 0, end: 3 * s / 2, inVehicle: false)], decidedBefore: 3 * s / 2), deliveredAt: 4 * s, into: &counted)
        #expect(counted == [1 * s] && gate.heldCount == 1)
        // [1.5 s, 10 s) vehicle: the second step and one given now are dropped.
        gate.pass([5 * s], ActivityUpdate(vehicleSpans: [Span(start: 3 * s / 2, end: 10 * s, inVehicle: true)], decidedBefore: 10 * s), deliveredAt: 11 * s, into: &counted)
        #expect(counted == [1 * s] && gate.heldCount == 0 && gate.dropped == 2)
        // The hold of the counted step: released at 4 s, given at 3 s.
        #expect(gate.holds.delays == [1 * s])
    }

    /// A step the counter gives after its time was decided is judged by the retained span.
    @Test func lateStepsAreJudgedByTheirTime() {
        var gate = VehicleStepGate()
        var counted: [Int64] = []
        gate.pass([], ActivityUpdate(vehicleSpans: [Span(start: 0, end: 5 * s, inVehicle: false), Span(start: 5 * s, end: 9 * s, inVehicle: true)], decidedBefore: 9 * s),
                  deliveredAt: 9 * s, into: &counted)
        gate.pass([4 * s, 6 * s], ActivityUpdate(decidedBefore: 9 * s), deliveredAt: 10 * s, into: &counted)
        #expect(counted == [4 * s] && gate.dropped == 1)
    }

    /// At the end of the stream every held step is decided; the live count only grows.
    @Test func finishDecidesEverythingAndTheCountNeverDrops() {
        var gate = VehicleStepGate()
        var counted: [Int64] = []
        var last = 0
        for i in 0..<50 {
            let inVehicle = (i / 10) % 2 == 1
            let t = Int64(i) * s
            gate.pass([t + s / 2], ActivityUpdate(vehicleSpans: i >= 2 ? [Span(start: Int64(i - 2) * s, end: Int64(i - 1) * s, inVehicle: ((i - 2) / 10) % 2 == 1)] : [],
                                                  decidedBefore: Int64(max(0, i - 1)) * s),
                      deliveredAt: t + s, into: &counted)
            #expect(counted.count >= last)
            last = counted.count
            _ = inVehicle
        }
        gate.finish(lastDeliveredAt: 50 * s, into: &counted)
        #expect(gate.heldCount == 0)
        #expect(counted.count + gate.dropped == 50)
        #expect(gate.dropped == 20, "steps of seconds 10-19 and 30-39 were in a vehicle")
        #expect(counted.allSatisfy { (($0 / s) / 10) % 2 == 0 || $0 >= 48 * s })
    }
}
