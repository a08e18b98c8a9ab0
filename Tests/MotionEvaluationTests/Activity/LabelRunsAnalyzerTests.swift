import MotionAnalysis
import MotionCore
@testable import MotionEvaluation
import Testing

/// Label runs collected from deliveries are the same whatever the batching.
struct LabelRunsAnalyzerTests {
    @Test(arguments: [1, 3, 7, 100])
    func runsDoNotDependOnBatching(batch: Int) throws {
        let labels: [String?] = Array(repeating: "standing", count: 10) + Array(repeating: nil, count: 5) + Array(repeating: "walking", count: 12)
        let samples = labels.indices.map { Sample(timestamp: Int64($0) * 20_000_000, accel: Vector3(0, 0, 9.81)) }
        var a = LabelRunsAnalyzer()
        var pipeline = AnalysisPipeline()
        let h = pipeline.add(a)
        for i in stride(from: 0, to: samples.count, by: batch) {
            let end = min(samples.count, i + batch)
            try pipeline.consume(SampleBatch(samples: Array(samples[i..<end]), deliveredAt: samples[end - 1].timestamp), labels: SampleLabels(labels[i..<end]))
        }
        a = pipeline.analyzer(h)
        #expect(a.result.runs == [
            .init(label: "standing", start: 0, end: 200_000_000),
            .init(label: nil, start: 200_000_000, end: 300_000_000),
            .init(label: "walking", start: 300_000_000, end: 520_000_000),
        ])
    }
}
