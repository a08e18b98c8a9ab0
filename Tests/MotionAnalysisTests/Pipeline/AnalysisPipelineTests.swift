import MotionAnalysis
import MotionCore
import Testing

/// The pipeline: ordered fan-out, one analyzer reading another's output, typed results, labels,
/// visibility and failures.
struct AnalysisPipelineTests {
    @Test(arguments: [1, 7, 100, 6000])
    func aLaterAnalyzerReadsTheEarlierOnesOutputForTheSameDelivery(size: Int) throws {
        var pipeline = AnalysisPipeline()
        let crossings = pipeline.add(UpCrossings())
        let follower = pipeline.add(CrossingFollower(upstream: crossings))
        let samples = sineSamples(count: 6000)
        for b in batches(samples, size: size) { try pipeline.consume(b) }
        try pipeline.finish()
        let found = pipeline.result(of: crossings).times
        #expect(found.count == 60)
        #expect(pipeline.result(of: follower).times == found)
        // Each delivery's output was read in that delivery: every crossing it saw lies in its samples.
        for (first, times) in pipeline.analyzer(follower).seen {
            let end = min(first + size, samples.count)
            #expect(times.allSatisfy { t in samples[first..<end].contains { $0.timestamp == t } })
        }
        #expect(pipeline.names == ["crossings", "follower"])
        #expect(pipeline.samplesConsumed == 6000 && pipeline.deliveries == (6000 + size - 1) / size)
    }

    @Test func resultsCompareAcrossPipelinesAndDetectADifference() throws {
        func run(_ samples: [Sample], size: Int) throws -> PipelineResults {
            var p = AnalysisPipeline()
            p.add(UpCrossings())
            p.add(StreamStatisticsAnalyzer())
            for b in batches(samples, size: size) { try p.consume(b) }
            try p.finish()
            return p.results
        }
        let samples = sineSamples(count: 3000)
        #expect(try run(samples, size: 1) == run(samples, size: 999))
        #expect(try run(samples, size: 1) != run(Array(samples.dropLast(150)), size: 1))
        #expect(try !run(samples, size: 5).isEmpty)
    }

    @Test func eventsAreVisibleAtTheirDeliveryInstant() throws {
        var pipeline = AnalysisPipeline()
        let crossings = pipeline.add(UpCrossings())
        let samples = sineSamples(count: 1000)
        // One delivery per 2 s, made 0.5 s after its last sample.
        for b in batches(samples, size: 200) {
            try pipeline.consume(SampleBatch(samples: b.samples, deliveredAt: b.deliveredAt + 500_000_000))
        }
        try pipeline.finish()
        let v = pipeline.visibility(of: crossings)
        let times = pipeline.result(of: crossings).times
        #expect(v.count == times.count && v.count == 10)
        for (t, d) in zip(times, v.delays) {
            let deliveredAt = ((t / 10_000_000) / 200 * 200 + 199) * 10_000_000 + 500_000_000
            #expect(d == deliveredAt - t)
        }
        #expect(v.worstSeconds! <= 2.5 && v.meanSeconds! > 0.5)
    }

    @Test func labelsReachTheAnalyzersWithTheirSamples() throws {
        var pipeline = AnalysisPipeline()
        let labels = pipeline.add(LabelRecorder())
        let samples = sineSamples(count: 10)
        let given: [String?] = ["sit", "sit", nil, "walk", "walk", "walk", "walk", "sit", nil, nil]
        try pipeline.consume(SampleBatch(samples: Array(samples[0..<4]), deliveredAt: 0), labels: SampleLabels(given[0..<4]))
        try pipeline.consume(SampleBatch(samples: Array(samples[4...]), deliveredAt: 0), labels: SampleLabels(given[4...]))
        try pipeline.finish()
        #expect(pipeline.result(of: labels).labels.labels == given)
    }

    @Test func aRefusedSampleIsNamedAndThePipelineStaysFailed() throws {
        var pipeline = AnalysisPipeline()
        let crossings = pipeline.add(UpCrossings())
        pipeline.add(Refuser(timestamp: 1_230_000_000))
        let parts = batches(sineSamples(count: 300), size: 50)
        try pipeline.consume(parts[0])
        try pipeline.consume(parts[1])
        #expect(throws: AnalysisFailure(analyzer: "refuser", sampleIndex: 123, problem: "sample 23 of the batch is refused")) {
            try pipeline.consume(parts[2])
        }
        #expect(pipeline.samplesConsumed == 100)
        #expect(pipeline.failure?.sampleIndex == 123)
        #expect(throws: AnalysisFailure.self) { try pipeline.consume(parts[3]) }
        #expect(throws: AnalysisFailure.self) { try pipeline.finish() }
        #expect(pipeline.result(of: crossings).times.count >= 1)
    }

    @Test func theStepCounterNamesTheSampleItRefuses() throws {
        var pipeline = AnalysisPipeline()
        pipeline.add(try StepCountAnalyzer())
        var samples = sineSamples(count: 100)
        samples[42].accel.z = .nan
        try pipeline.consume(SampleBatch(samples: Array(samples[0..<40]), deliveredAt: 0))
        #expect {
            try pipeline.consume(SampleBatch(samples: Array(samples[40...]), deliveredAt: 0))
        } throws: { error in
            let f = error as? AnalysisFailure
            return f?.analyzer == "steps" && f?.sampleIndex == 42 && f?.problem.contains("NaN") == true
        }
    }
}
