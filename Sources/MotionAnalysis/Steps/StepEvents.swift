/// The steps one delivery counted: their sample times (ns), oldest first.
public struct StepEvents: AnalysisOutput, Equatable {
    /// Step times, ns on the sample clock.
    public var times: [Int64]

    /// Creates the output.
    public init(times: [Int64]) { self.times = times }

    /// The steps are the events.
    public var eventTimes: [Int64] { times }
}
