import MotionCore
import MotionSystem
import Testing
@testable import MotionIIO

/// ``CaptureMachine/Settings/joinSamples``: a per-sample stream's wake-ups collected into one
/// drain (``CaptureMachine/Action/collect(stream:recheckScale:upTo:until:)``) change no sample, no
/// wake-up count and no stop; only the number of batches.
@Suite("CaptureMachine joined deliveries")
struct CaptureMachineJoinTests {
    typealias K = FakeKernel
    static let ms = K.ms
    static let start: Int64 = 1_000_000_000

    static func perSampleKernel(_ n: Int = 1500, timestamps: Bool = true) -> K {
        K(setups: [K.setup(K.plan(batch: 1, strategy: .pollDrain), timestamps: timestamps)], arrivals: [K.perSample(n)])
    }

    static func settings(duration: Double? = nil, samples: Int? = nil, join: Int) -> CaptureMachine.Settings {
        var s = CaptureMachine.Settings(duration: duration, sampleLimit: samples)
        s.joinSamples = join
        return s
    }

    enum Stop: String, CaseIterable {
        case duration, signal, sampleLimit
    }

    /// The same stream stopped by a deadline, a signal or the sample count, with and without
    /// joining: the same samples in the same order, the same wake-ups, the same stop at the same
    /// instant; joined, about one batch per 250 ms.
    @Test(arguments: Stop.allCases)
    func joiningChangesNoSampleNoWakeUpAndNoStop(stop: Stop) {
        func run(join: Int) -> (K, CaptureMachine) {
            var k = Self.perSampleKernel()
            let s: CaptureMachine.Settings
            switch stop {
            case .duration: s = Self.settings(duration: 7.345, join: join)
            case .signal:
                k.signals = [(Self.start + 5_432 * Self.ms, .stop(signal: 2))]
                s = Self.settings(duration: 60, join: join)
            case .sampleLimit: s = Self.settings(samples: 1_013, join: join)
            }
            let m = k.run(s)
            return (k, m)
        }
        let (plain, a) = run(join: 1)
        let (joined, b) = run(join: 32)
        #expect(plain.collects.isEmpty)
        #expect(!joined.collects.isEmpty)
        #expect(joined.delivered == plain.delivered)
        #expect(joined.delivered.count > 500)
        #expect(b.statistics.samples == a.statistics.samples)
        #expect(b.statistics.userspaceReturns == a.statistics.userspaceReturns)
        #expect(b.statistics.eventWakes == a.statistics.eventWakes)
        #expect(b.statistics.stopReason == a.statistics.stopReason)
        #expect(joined.finishedAt == plain.finishedAt)
        #expect(b.statistics.elapsedNanoseconds == a.statistics.elapsedNanoseconds)
        #expect(b.statistics.devices.first?.drainsWithData == a.statistics.devices.first?.drainsWithData)
        // At 100 Hz a collection takes 25 samples (250 ms): about a fortieth of the batches.
        #expect(plain.batches.count == plain.delivered.count)
        #expect(joined.batches.allSatisfy { $0.count <= 25 })
        #expect(joined.batches.count <= plain.batches.count / 20)
        #expect(joined.collects.allSatisfy { $0.upTo <= 25 })
    }

    /// A signal during a collection ends it at once: the capture stops at the signal's instant.
    @Test func aSignalInterruptsACollection() {
        var k = Self.perSampleKernel()
        let at = Self.start + 1_234 * Self.ms + 5 * Self.ms // between two samples
        k.signals = [(at, .stop(signal: 15))]
        let m = k.run(Self.settings(duration: 60, join: 32))
        #expect(m.statistics.stopReason == .signal(15))
        #expect(k.finishedAt == at)
        #expect(m.statistics.eventWakes == 1)
        #expect(k.delivered.count == K.perSample(1500).filter { $0.time <= at }.count)
    }

    /// A stalled device: the collection is cut at twice the delay, and what it holds delivered.
    @Test func aStallEndsACollectionAtItsTimeLimit() {
        var arrivals = K.perSample(300)
        // Samples 10... arrive 3 s late.
        for i in 10..<arrivals.count { arrivals[i].time += 3_000 * Self.ms }
        var k = K(setups: [K.setup(K.plan(batch: 1, strategy: .pollDrain))], arrivals: [arrivals])
        _ = k.run(Self.settings(samples: 200, join: 32))
        let first = try! #require(k.batches.first)
        #expect(first.count == 10)
        #expect(k.delivered.count == 200)
        #expect(k.delivered.map(\.timestamp) == K.perSample(200).map(\.sample.timestamp))
    }

    /// Only a lone per-sample stream with timestamps, at a rate that fills a collection, is
    /// joined: not without device timestamps (each sample takes its drain's time), not for two
    /// devices (merged by time), not batches, not below 8 Hz, and not before a test stall is over.
    @Test func joiningIsAskedOnlyWhereItChangesNothing() {
        var noTimestamps = Self.perSampleKernel(timestamps: false)
        var settings = Self.settings(duration: 2, join: 32)
        settings.repairTimestamps = false
        _ = noTimestamps.run(settings)
        #expect(noTimestamps.collects.isEmpty && !noTimestamps.batches.isEmpty)

        let plan = K.plan(batch: 1, strategy: .pollDrain)
        var two = K(setups: [K.setup(plan), K.setup(plan, id: "iio:device1", name: "gyro_3d", accel: false)],
                    arrivals: [K.perSample(300), K.perSample(300)])
        _ = two.run(Self.settings(duration: 2, join: 32))
        #expect(two.collects.isEmpty && !two.batches.isEmpty)

        var batched = K(setups: [K.setup(K.plan(batch: 10, strategy: .pollDrain, burst: 10))], arrivals: [K.bursts(20, burst: 10)])
        _ = batched.run(Self.settings(duration: 2, join: 32))
        #expect(batched.collects.isEmpty && !batched.batches.isEmpty)

        var slowSetup = K.setup(plan)
        slowSetup.period = 200 * Self.ms // 5 Hz: one sample per 250 ms
        var slow = K(setups: [slowSetup], arrivals: [K.perSample(20, period: 200 * Self.ms)])
        _ = slow.run(Self.settings(duration: 3, join: 32))
        #expect(slow.collects.isEmpty && !slow.batches.isEmpty)

        // A test stall (1 s in, 0.5 s long): no collection until it is over; the same samples.
        var stalled = Self.perSampleKernel()
        var st = Self.settings(duration: 3, join: 32)
        st.stall = .init(after: 1, duration: 0.5)
        _ = stalled.run(st)
        let stallEnd = Self.start + 1_500 * Self.ms
        #expect(!stalled.collects.isEmpty && stalled.collects.allSatisfy { $0.until - 500 * Self.ms >= stallEnd })
        var plain = Self.perSampleKernel()
        st.joinSamples = 1
        _ = plain.run(st)
        #expect(stalled.delivered == plain.delivered)
    }

    /// The sample limit bounds a collection: never more than is left to deliver.
    @Test(arguments: [2, 7, 26, 1_001])
    func aCollectionNeverReadsPastTheSampleLimit(limit: Int) {
        var k = Self.perSampleKernel()
        let m = k.run(Self.settings(samples: limit, join: 32))
        #expect(k.delivered.count == limit && m.statistics.stopReason == .sampleCount)
        var left = limit
        for (c, batch) in zip(k.collects, k.batches) {
            #expect(c.upTo <= left)
            left -= batch.count
        }
    }
}
