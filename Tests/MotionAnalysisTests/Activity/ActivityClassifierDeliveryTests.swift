@testable import MotionAnalysis
import MotionCore
import Testing

/// The classifier's per-delivery output when samples come one at a time (a capture at batch 1).
struct ActivityClassifierDeliveryTests {
    @Test func perSampleUpdatesReuseOneSpanArrayAndCoverTimeContiguously() throws {
        var c = try ActivityClassifier()
        var addresses = Set<UInt>()
        var covered: Int64?
        // Arrays of the spans' size allocated between deliveries and kept: a span array freed
        // after one delivery is taken by them, so a new array per delivery would show as a new
        // address every time.
        var decoys: [[ActivityUpdate.VehicleSpan]] = []
        for s in ActivityStreams.ride(seconds: 30) {
            do {
                let u = try c.process(SampleBatch(samples: [s], deliveredAt: s.timestamp))
                guard let first = u.vehicleSpans.first, let last = u.vehicleSpans.last else { continue }
                // Each update's spans start where the previous ones ended.
                if let covered { #expect(first.start == covered) }
                covered = last.end
                #expect(u.decidedBefore == last.end)
                u.vehicleSpans.withUnsafeBufferPointer { addresses.insert(UInt(bitPattern: $0.baseAddress)) }
            }
            decoys.append([ActivityUpdate.VehicleSpan(start: 0, end: 1, inVehicle: false)])
        }
        #expect(covered != nil && decoys.count > 10)
        // The update of one delivery is dropped before the next: its array is written again
        // (an array per update measured 15 addresses here).
        #expect(addresses.count <= 2)
    }

    /// The O(1) live confidence is the timeline's last segment's, at every delivery of a ride
    /// and a walk (segments open, close and are back-dated along the way).
    @Test func currentConfidenceIsTheTimelinesLast() throws {
        var c = try ActivityClassifier()
        #expect(c.currentConfidence == c.timeline.segments.last?.confidence)
        var checked = 0
        for s in ActivityStreams.ride(seconds: 60) {
            _ = try c.process(SampleBatch(samples: [s], deliveredAt: s.timestamp))
            #expect(c.currentConfidence == c.timeline.segments.last?.confidence)
            if (c.currentConfidence ?? 0) > 0 { checked += 1 }
        }
        _ = c.finish()
        #expect(c.currentConfidence == c.timeline.segments.last?.confidence)
        #expect(checked > 0)
    }
}
