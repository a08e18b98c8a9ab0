import Testing
@testable import MotionIIO

/// Timed waiting's schedule: when a batch is due after each drain.
struct BatchDueClockTests {
    let ms: Int64 = 1_000_000

    @Test func firstBatchIsDueHalfAPeriodAfterTheNthSample() {
        let c = BatchDueClock(batchSamples: 100, period: 10 * ms, start: 5_000 * ms)
        #expect(c.due == 5_000 * ms + 1_000 * ms + 5 * ms)
        #expect(c.waitMilliseconds(at: 5_000 * ms) == 1005)
    }

    @Test func aCompleteBatchIsHandedOverAndTheNextIsDueOnTheGrid() {
        var c = BatchDueClock(batchSamples: 100, period: 10 * ms, start: 0)
        let b1 = c.drained(100, at: 1_005 * ms)
        #expect(b1)
        #expect(c.held == 0)
        #expect(c.due == 2_005 * ms)
        // A late wake-up that finds one extra sample makes one batch; the next stays on the grid.
        let b2 = c.drained(101, at: 2_012 * ms)
        #expect(b2)
        #expect(c.due == 3_005 * ms)
        #expect(c.shortBatches == 0)
    }

    @Test func aShortBatchIsHandedOverWhenDueAndCounted() {
        // The latency bound, not the count: a late producer does not cost a wake-up.
        var c = BatchDueClock(batchSamples: 100, period: 10 * ms, start: 0)
        let b3 = c.drained(97, at: 1_005 * ms)
        #expect(b3)
        #expect(c.held == 0)
        #expect(c.shortBatches == 1)
        #expect(c.due == 2_005 * ms)
        // The late three arrive with the next batch.
        let b4 = c.drained(103, at: 2_005 * ms)
        #expect(b4)
        #expect(c.shortBatches == 1)
    }

    @Test func anEarlyDrainOfAWholeBatchKeepsTheSchedule() {
        var c = BatchDueClock(batchSamples: 100, period: 10 * ms, start: 0)
        let early = c.drained(60, at: 600 * ms)
        #expect(!early)
        #expect(c.held == 60 && c.due == 1_005 * ms)
        let whole = c.drained(40, at: 1_000 * ms)
        #expect(whole)
        #expect(c.held == 0 && c.due == 1_005 * ms)
    }

    @Test func afterAStallTheGridRestartsFromTheWakeUp() {
        var c = BatchDueClock(batchSamples: 100, period: 10 * ms, start: 0)
        let late = c.drained(350, at: 4_500 * ms)
        #expect(late)
        #expect(c.due == 5_500 * ms)
    }

    @Test(arguments: [(now: Int64(0), wait: Int32(1005)), (now: 1_004_500_000, wait: 1), (now: 1_005_000_000, wait: 0), (now: 2_000_000_000, wait: 0)])
    func waitIsRoundedUpToWholeMilliseconds(now: Int64, wait: Int32) {
        let c = BatchDueClock(batchSamples: 100, period: 10 * ms, start: 0)
        #expect(c.waitMilliseconds(at: now) == wait)
    }
}
