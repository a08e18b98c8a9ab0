extension ActivityClassifierError: SampleError {
    /// The offending sample's index in the batch, for errors about one sample.
    public var sampleIndexInBatch: Int? {
        if case .input(let e) = self { return e.sampleIndexInBatch }
        return nil
    }
}
