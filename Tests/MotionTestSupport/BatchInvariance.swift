import MotionAnalysis
import MotionCore

/// The batch-invariance check every analyzer is put through: a recording's results must be the same
/// whether it is delivered in one batch, in batches of any fixed size, in random splits, at any
/// delivery latency, or streamed from the file by ``MotionAnalysis/RecordingReplay``, and the
/// analysis must have found something (an invariance test that counts nothing proves nothing).
public enum BatchInvariance {
    /// An analyzer under test: its name and how to build a pipeline holding it for a recording.
    public struct Subject: Sendable, CustomStringConvertible {
        /// The analyzer's name (as its ``MotionAnalysis/BatchAnalyzer/name``).
        public let name: String
        /// A fresh pipeline with the analyzer (and whatever it depends on), for the recording's header.
        public let makePipeline: @Sendable (RecordingHeader) throws -> AnalysisPipeline

        /// Creates a subject.
        public init(_ name: String, makePipeline: @escaping @Sendable (RecordingHeader) throws -> AnalysisPipeline) {
            self.name = name
            self.makePipeline = makePipeline
        }

        /// The subject holding just `make(header)`.
        public static func analyzer<A: BatchAnalyzer & SendableMetatype>(_ name: String, _ make: @escaping @Sendable (RecordingHeader) throws -> A) -> Subject {
            Subject(name) { header in
                var p = AnalysisPipeline()
                p.add(try make(header))
                return p
            }
        }

        public var description: String { name }
    }

    /// Fixed batch sizes tried.
    public static let batchSizes = [1, 2, 3, 7, 13, 64, 97, 1000, 4093]
    /// Delivery latencies tried through ``MotionAnalysis/ReplaySession`` (s).
    public static let latencies = [0.1, 1.0, 10.0]

    /// What went wrong, one line per failed comparison (empty when the subject is invariant and,
    /// unless `mayFindNothing`, found something in the recording at `path`).
    public static func problems(_ subject: Subject, recording path: String, mayFindNothing: Bool = false) throws -> [String] {
        let recording = try Recording.read(path: path)
        let header = recording.header
        let whole = try results(subject, recording, cuts: [])
        var problems: [String] = []
        if whole.values.contains(where: \.isEmpty) && !mayFindNothing {
            problems.append("\(subject) found nothing in \(path): an invariance test must count something")
        }
        func check(_ r: PipelineResults, _ what: String) {
            if r != whole { problems.append("\(subject) on \(path): \(what) differs from the whole file in one batch") }
        }
        for size in batchSizes {
            check(try results(subject, recording, cuts: Array(stride(from: size, to: recording.samples.count, by: size))), "batches of \(size)")
        }
        var g = SplitMix64(seed: 0x5EED)
        for trial in 0..<4 {
            var cuts: [Int] = []
            var i = 0
            while true {
                i += Int.random(in: 1...(trial.isMultiple(of: 2) ? 50 : 3000), using: &g)
                if i >= recording.samples.count { break }
                cuts.append(i)
            }
            check(try results(subject, recording, cuts: cuts), "random split \(trial) (\(cuts.count + 1) batches)")
        }
        for latency in latencies {
            var session = ReplaySession(policy: .latency(seconds: latency), pipeline: try subject.makePipeline(header), labelled: recording.labels != nil)
            try session.push(recording.samples, labels: recording.labels)
            try session.finish()
            check(session.pipeline.results, "delivery at latency \(latency) s")
        }
        let streamed = try RecordingReplay.run(path: path) { h in
            [ReplaySession(policy: .samples(100), pipeline: try subject.makePipeline(h), labelled: h.hasLabels)]
        }
        check(streamed.sessions[0].pipeline.results, "the file streamed by RecordingReplay")
        return problems
    }

    /// The subject's results for the recording cut before each index of `cuts` (increasing).
    public static func results(_ subject: Subject, _ recording: Recording, cuts: [Int]) throws -> PipelineResults {
        var pipeline = try subject.makePipeline(recording.header)
        var start = 0
        for end in cuts + [recording.samples.count] where end > start {
            let part = Array(recording.samples[start..<end])
            try pipeline.consume(SampleBatch(samples: part, deliveredAt: part[part.count - 1].timestamp),
                                 labels: recording.labels.map { SampleLabels($0[start..<end]) })
            start = end
        }
        try pipeline.finish()
        return pipeline.results
    }
}
