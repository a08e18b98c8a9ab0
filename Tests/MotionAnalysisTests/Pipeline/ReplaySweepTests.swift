import Foundation
import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// A recording at every rate × latency in one pass: results identical across latencies, events
/// visible within the latency, rates below the recording's own thinned, compared per rate.
struct ReplaySweepTests {
    /// 100 Hz for 60 s, x = a 1 Hz sine with timestamp jitter, as a MotionBatch recording.
    static func sineRecording() throws -> String {
        var rows = "# motionbatch-recording: 1\ntimestamp_ns,accel_x,accel_y,accel_z\n"
        for i in 0..<6000 {
            let t = Int64(i) * 10_000_000 + Int64((i * 7919) % 5) * 100_000
            rows += "\(t),\(sin(2 * Double.pi * Double(t) / 1e9)),0,9.81\n"
        }
        return try TestPaths.scratchFile(rows)
    }

    /// Replays the sine recording through stream statistics and up-crossings.
    static func sweep(rates: [Double], latencies: [Double]) throws
        -> (runs: [ReplaySweep.Run], stream: AnalyzerHandle<StreamStatisticsAnalyzer>, crossings: AnalyzerHandle<UpCrossings>) {
        var handles: (AnalyzerHandle<StreamStatisticsAnalyzer>, AnalyzerHandle<UpCrossings>)?
        let runs = try ReplaySweep.run(path: sineRecording(), rates: rates, latencies: latencies) { header in
            var p = AnalysisPipeline()
            handles = (p.add(StreamStatisticsAnalyzer(declaredRateHz: header.declaredRate)), p.add(UpCrossings()))
            return p
        }
        return (runs, handles!.0, handles!.1)
    }

    @Test func resultsAreIdenticalAcrossLatenciesAndEventsBecomeVisibleWithinTheLatency() throws {
        let latencies = [0.0, 0.1, 1, 5, 10]
        let (runs, _, crossings) = try Self.sweep(rates: [100], latencies: latencies)
        #expect(runs.map(\.latencyS) == latencies)
        #expect(ReplaySweep.identicalWithinRates(runs))
        for r in runs {
            let v = r.session.pipeline.visibility(of: crossings)
            #expect(v.count == 59 || v.count == 60)
            #expect(v.delays.allSatisfy { $0 >= 0 && Double($0) / 1e9 <= r.latencyS + 1e-9 })
            #expect(r.session.delivery.samples == 6000)
        }
        #expect(runs.last!.session.pipeline.visibility(of: crossings).worstSeconds! > 5, "with 10 s batches some crossing waits more than 5 s")
    }

    @Test func ratesBelowTheRecordingsOwnAreThinnedAndOthersReplayItOnce() throws {
        let (runs, stream, _) = try Self.sweep(rates: [25, 50, 100, 200], latencies: [0, 1])
        #expect(runs.map(\.session.delivery.samples) == [1500, 1500, 3000, 3000, 6000, 6000])
        #expect(runs.map { ($0.rateHz * 10).rounded() / 10 } == [25, 25, 50, 50, 100, 100])
        #expect(ReplaySweep.identicalWithinRates(runs))
        // A thinned stream declares its rate: no gaps at 25 Hz.
        #expect(runs[0].session.pipeline.result(of: stream).gapCount == 0)
    }

    @Test func identicalIsJudgedWithinEachRate() throws {
        let runs = try Self.sweep(rates: [25, 100], latencies: [0, 1]).runs
        // Different rates have different results, and that is fine...
        #expect(runs[0].session.pipeline.results != runs[2].session.pipeline.results)
        #expect(ReplaySweep.identicalWithinRates(runs))
        // ...but a latency whose results differ from its rate's others is caught.
        var changed = runs
        changed[1] = runs[2]
        changed[1].rateHz = runs[0].rateHz
        #expect(!ReplaySweep.identicalWithinRates(changed))
    }

    @Test func aRecordingWithoutARateIsRefused() throws {
        let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,0,0,9.8\n")
        #expect(throws: RecordingError.self) {
            _ = try ReplaySweep.run(path: path, rates: [25], latencies: [1]) { _ in AnalysisPipeline() }
        }
    }
}
