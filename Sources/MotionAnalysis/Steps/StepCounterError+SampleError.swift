extension StepCounterError: SampleError {
    /// The offending sample's index in the batch, for errors about one sample.
    public var sampleIndexInBatch: Int? {
        switch self {
        case .nonFiniteValue(let i, _), .timestampNotIncreasing(let i, _, _), .timestampOutOfRange(let i, _): return i
        case .emptyBatch, .invalidConfiguration, .unknownParameter: return nil
        }
    }
}
