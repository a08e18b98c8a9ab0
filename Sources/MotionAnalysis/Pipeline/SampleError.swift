/// An analyzer's error that points at one sample of the batch it was given, so that a replay can
/// name the recording's line.
public protocol SampleError: Error {
    /// Index of the offending sample within the batch, or nil when no single sample is at fault.
    var sampleIndexInBatch: Int? { get }
}
