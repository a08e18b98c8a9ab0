/// A ``BatchAnalyzer/Result``: compared across batchings (so `Equatable`), and able to say whether
/// the analysis found anything at all (tests of batch invariance require that it did).
public protocol AnalysisResult: Equatable, Sendable {
    /// True when nothing was found (no sample, no step, no segment).
    var isEmpty: Bool { get }
}
