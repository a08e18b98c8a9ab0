import MotionCore

/// The analyzers every command runs on a stream, in their order, and the handles their results are
/// read with: stream statistics, the activity classifier, then the step counter (which counts no
/// steps in a vehicle, by the classifier's decisions). `replay`, `steps`, `activity`, `wakes RECORDING`,
/// `eval steps` and the live capture all build their pipeline here, so an analyzer added here
/// reaches every one of them.
public struct StandardAnalyzers: Sendable {
    /// Sample count, span, rate and gaps.
    public let stream: AnalyzerHandle<StreamStatisticsAnalyzer>
    /// Activity segments.
    public let activity: AnalyzerHandle<ActivityAnalyzer>
    /// Steps.
    public let steps: AnalyzerHandle<StepCountAnalyzer>

    /// A fresh pipeline of the standard analyzers, and their handles.
    /// - Parameters:
    ///   - declaredRateHz: the rate the source declares (``MotionCore/RecordingHeader/declaredRate``), if any.
    ///   - sensors: the sensors the stream carries.
    ///   - steps: the step counter's parameters.
    ///   - activity: the activity classifier's parameters.
    /// - Throws: ``StepCounterError/invalidConfiguration(_:)`` or ``ActivityClassifierError/invalidConfiguration(_:)``.
    public static func pipeline(declaredRateHz: Double?, sensors: SensorSet = .accel,
                                steps: StepCounterConfiguration = StepCounterConfiguration(),
                                activity: ActivityClassifierConfiguration = ActivityClassifierConfiguration()) throws -> (AnalysisPipeline, StandardAnalyzers) {
        var pipeline = AnalysisPipeline()
        let stream = pipeline.add(StreamStatisticsAnalyzer(declaredRateHz: declaredRateHz))
        let activityHandle = pipeline.add(try ActivityAnalyzer(configuration: activity, gyroscope: sensors.contains(.gyro)))
        let stepsHandle = pipeline.add(try StepCountAnalyzer(configuration: steps, activity: activityHandle))
        return (pipeline, StandardAnalyzers(stream: stream, activity: activityHandle, steps: stepsHandle))
    }

    /// ``pipeline(declaredRateHz:sensors:steps:activity:)`` for a recording's header.
    public static func pipeline(for header: RecordingHeader,
                                steps: StepCounterConfiguration = StepCounterConfiguration(),
                                activity: ActivityClassifierConfiguration = ActivityClassifierConfiguration()) throws -> (AnalysisPipeline, StandardAnalyzers) {
        try pipeline(declaredRateHz: header.declaredRate, sensors: header.sensors, steps: steps, activity: activity)
    }
}

extension StandardAnalyzers {
    /// The steps of `pipeline` (built by ``pipeline(declaredRateHz:sensors:steps:activity:)``):
    /// the counted steps, and unless `inferring` is false the steps inferred in the counter's
    /// silences where the classifier says `walking` or `running` (``InferredSteps``), from the
    /// timeline so far (final at the end of the stream).
    /// - Complexity: O(steps + segments).
    public func stepSummary(of pipeline: AnalysisPipeline, inferring: Bool = true) -> StepSummary {
        var summary = pipeline.result(of: steps)
        if inferring {
            summary.inferred = InferredSteps(steps: summary.timestamps, timeline: pipeline.result(of: activity),
                                             moving: pipeline.analyzer(steps).movingSilences)
        }
        return summary
    }

    /// Replays the recording at `path` through a standard pipeline delivered at `policy`: what
    /// `replay`, `steps` and `eval steps` do with a file.
    /// - Returns: the finished replay (one session) and the handles of its results.
    /// - Throws: as ``RecordingReplay/run(path:transform:progress:sessions:)``.
    public static func replay(path: String, policy: DeliveryPolicy, steps: StepCounterConfiguration = StepCounterConfiguration(),
                              activity: ActivityClassifierConfiguration = ActivityClassifierConfiguration(),
                              transform: ((inout [Sample]) -> Void)? = nil,
                              progress: (Int) -> Void = { _ in }) throws -> (RecordingReplay, StandardAnalyzers) {
        try replay(reader: try RecordingReader(path: path), policy: policy, steps: steps, activity: activity, transform: transform, progress: progress)
    }

    /// ``replay(path:policy:steps:activity:transform:progress:)`` of what `reader` reads (any
    /// dialect and input).
    public static func replay(reader: RecordingReader, policy: DeliveryPolicy, steps: StepCounterConfiguration = StepCounterConfiguration(),
                              activity: ActivityClassifierConfiguration = ActivityClassifierConfiguration(),
                              transform: ((inout [Sample]) -> Void)? = nil,
                              progress: (Int) -> Void = { _ in }) throws -> (RecordingReplay, StandardAnalyzers) {
        var handles: StandardAnalyzers?
        let replay = try RecordingReplay.run(reader: reader, transform: transform, progress: progress) { header in
            let (pipeline, h) = try StandardAnalyzers.pipeline(for: header, steps: steps, activity: activity)
            handles = h
            return [ReplaySession(policy: policy, pipeline: pipeline, labelled: header.hasLabels)]
        }
        return (replay, handles!)
    }
}
