/// The output of an analyzer whose deliveries produce nothing for others to read.
public struct NoOutput: AnalysisOutput, Equatable {
    /// Creates the empty output.
    public init() {}
}
