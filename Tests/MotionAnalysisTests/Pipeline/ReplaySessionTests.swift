import MotionAnalysis
import MotionCore
import Testing

/// A session: thinning, deliveries at a policy, labels travelling with their samples, failures
/// named by pushed sample.
struct ReplaySessionTests {
    static func labels(for samples: [Sample]) -> [String?] {
        samples.map { s in s.timestamp % 3_000_000_000 < 1_000_000_000 ? nil : (s.timestamp % 3_000_000_000 < 2_000_000_000 ? "sit" : "walk") }
    }

    @Test(arguments: [DeliveryPolicy.samples(1), .samples(37), .latency(seconds: 0.25), .latency(seconds: 10)], [1, 5, 1000])
    func labelsTravelWithTheirSamples(policy: DeliveryPolicy, chunk: Int) throws {
        var pipeline = AnalysisPipeline()
        let recorder = pipeline.add(LabelRecorder())
        var session = ReplaySession(policy: policy, pipeline: pipeline, labelled: true)
        let samples = sineSamples(count: 1000)
        let labels = Self.labels(for: samples)
        for i in stride(from: 0, to: samples.count, by: chunk) {
            let end = min(samples.count, i + chunk)
            try session.push(Array(samples[i..<end]), labels: Array(labels[i..<end]))
        }
        try session.finish()
        #expect(session.pipeline.result(of: recorder).labels.labels == labels)
        #expect(session.delivery.samples == 1000 && session.samplesPushed == 1000)
    }

    @Test func thinningKeepsTheFirstSampleOfEachSlotAndItsLabel() throws {
        var pipeline = AnalysisPipeline()
        let recorder = pipeline.add(LabelRecorder())
        let stream = pipeline.add(StreamStatisticsAnalyzer())
        var session = ReplaySession(policy: .latency(seconds: 1), pipeline: pipeline, decimatingTo: 32, labelled: true)
        // 128 Hz thinned to 32 Hz: slot boundaries fall exactly on every 4th sample (t = i / 128 s is exact).
        let samples = sineSamples(count: 1000, periodNs: 7_812_500)
        try session.push(samples, labels: Self.labels(for: samples))
        try session.finish()
        let kept = stride(from: 0, to: 1000, by: 4).map { samples[$0] }
        #expect(session.pipeline.result(of: stream).sampleCount == 250)
        #expect(session.pipeline.result(of: recorder).labels.labels == Self.labels(for: kept))
        #expect(session.decimatedRateHz == 32)
    }

    @Test(arguments: [nil, 32.0])
    func aFailureNamesThePushedSample(rate: Double?) throws {
        var pipeline = AnalysisPipeline()
        // Sample 600 of the 128 Hz stream is kept by the 32 Hz thinning too (600 = 4 × 150).
        pipeline.add(Refuser(timestamp: 600 * 7_812_500))
        var session = ReplaySession(policy: .samples(64), pipeline: pipeline, decimatingTo: rate)
        let samples = sineSamples(count: 1000, periodNs: 7_812_500)
        #expect {
            try session.push(Array(samples[0..<500]))
            try session.push(Array(samples[500...]))
            try session.finish()
        } throws: { error in
            (error as? AnalysisFailure)?.sampleIndex == 600
        }
    }
}
