import MotionAnalysis
import MotionCore
import MotionSystem

/// The timed loop of the analysis benchmarks (`bench steps`, `bench activity`): a recording held
/// in memory is cut into deliveries once and fed to a pipeline end to end, again and again with
/// its timestamps shifted by its span each time (untimed), until enough samples have gone
/// through; only the `consume` calls are timed.
struct BenchReplay {
    /// Samples consumed.
    var samples = 0
    /// Sample time covered (ns).
    var dataNanoseconds: Int64 = 0
    /// Time spent in `consume` (ns).
    var elapsedNanoseconds: Int64 = 0

    /// Replays `samples` (at least two, time order) in deliveries of `batch` through `pipeline`
    /// until at least `minimumSamples` have been consumed, then finishes the pipeline.
    /// - Throws: the pipeline's ``MotionAnalysis/AnalysisFailure``.
    static func run(_ samples: [Sample], batch: Int, minimumSamples: Int, through pipeline: inout AnalysisPipeline) throws(AnalysisFailure) -> BenchReplay {
        precondition(samples.count > 1 && batch > 0, "a benchmark needs two samples and a batch size")
        let span = samples[samples.count - 1].timestamp - samples[0].timestamp
        let shift = span + (span / Int64(samples.count - 1))
        var batches = stride(from: 0, to: samples.count, by: batch).map { i in
            let part = Array(samples[i..<min(samples.count, i + batch)])
            return SampleBatch(samples: part, deliveredAt: part[part.count - 1].timestamp)
        }
        var r = BenchReplay()
        while r.samples < minimumSamples {
            let t0 = MonotonicClock.nanoseconds()
            for b in batches { try pipeline.consume(b) }
            r.elapsedNanoseconds += MonotonicClock.nanoseconds() - t0
            r.samples += samples.count
            r.dataNanoseconds += shift
            for i in batches.indices {
                for j in batches[i].samples.indices { batches[i].samples[j].timestamp += shift }
                batches[i].deliveredAt += shift
            }
        }
        try pipeline.finish()
        return r
    }

    /// Seconds spent in `consume`.
    var seconds: Double { Double(elapsedNanoseconds) / 1e9 }
}
