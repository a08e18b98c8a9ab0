import MotionCore

/// The analyzers every command runs on a stream, in their order, and the handles their results are
/// read with: stream statistics, then the step counter. `replay`, `steps`, `wakes RECORDING`,
/// `eval steps` and the live capture all build their pipeline here, so an analyzer added here
/// reaches every one of them.
public struct StandardAnalyzers: Sendable {
    /// Sample count, span, rate and gaps.
    public let stream: AnalyzerHandle<StreamStatisticsAnalyzer>
    /// Steps.
    public let steps: AnalyzerHandle<StepCountAnalyzer>

    /// A fresh pipeline of the standard analyzers, and their handles.
    /// - Parameters:
    ///   - declaredRateHz: the rate the source declares (``MotionCore/RecordingHeader/declaredRate``), if any.
    ///   - sensors: the sensors the stream carries.
    ///   - steps: the step counter's parameters.
    /// - Throws: ``StepCounterError/invalidConfiguration(_:)``.
    public static func pipeline(declaredRateHz: Double?, sensors: SensorSet = .accel,
                                steps: StepCounterConfiguration = StepCounterConfiguration()) throws(StepCounterError) -> (AnalysisPipeline, StandardAnalyzers) {
        var pipeline = AnalysisPipeline()
        let stream = pipeline.add(StreamStatisticsAnalyzer(declaredRateHz: declaredRateHz))
        let stepsHandle = pipeline.add(try StepCountAnalyzer(configuration: steps))
        return (pipeline, StandardAnalyzers(stream: stream, steps: stepsHandle))
    }

    /// ``pipeline(declaredRateHz:sensors:steps:)`` for a recording's header.
    public static func pipeline(for header: RecordingHeader,
                                steps: StepCounterConfiguration = StepCounterConfiguration()) throws(StepCounterError) -> (AnalysisPipeline, StandardAnalyzers) {
        try pipeline(declaredRateHz: header.declaredRate, sensors: header.sensors, steps: steps)
    }
}

extension StandardAnalyzers {
    /// Replays the recording at `path` through a standard pipeline delivered at `policy`: what
    /// `replay`, `steps` and `eval steps` do with a file.
    /// - Returns: the finished replay (one session) and the handles of its results.
    /// - Throws: as ``RecordingReplay/run(path:transform:progress:sessions:)``.
    public static func replay(path: String, policy: DeliveryPolicy, steps: StepCounterConfiguration = StepCounterConfiguration(),
                              transform: ((inout [Sample]) -> Void)? = nil,
                              progress: (Int) -> Void = { _ in }) throws -> (RecordingReplay, StandardAnalyzers) {
        var handles: StandardAnalyzers?
        let replay = try RecordingReplay.run(path: path, transform: transform, progress: progress) { header in
            let (pipeline, h) = try StandardAnalyzers.pipeline(for: header, steps: steps)
            handles = h
            return [ReplaySession(policy: policy, pipeline: pipeline, labelled: header.hasLabels)]
        }
        return (replay, handles!)
    }
}
