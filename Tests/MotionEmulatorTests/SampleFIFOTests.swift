import Testing
@testable import MotionEmulator

@Test func fifoKeepsOrderAndDropsByPolicy() {
    var oldest = SampleFIFO<Int>(capacity: 3, policy: .dropOldest)
    var newest = SampleFIFO<Int>(capacity: 3, policy: .dropNewest)
    var droppedOld = 0, droppedNew = 0
    for i in 0..<7 {
        if oldest.push(i) { droppedOld += 1 }
        if newest.push(i) { droppedNew += 1 }
    }
    #expect(oldest.drain() == [4, 5, 6] && droppedOld == 4)
    #expect(newest.drain() == [0, 1, 2] && droppedNew == 4)
    #expect(oldest.isEmpty && oldest.drain().isEmpty)
    // Reusable after draining, wrapping around the ring.
    for i in 10..<12 { oldest.push(i) }
    #expect(oldest.count == 2 && oldest.drain() == [10, 11])
}
