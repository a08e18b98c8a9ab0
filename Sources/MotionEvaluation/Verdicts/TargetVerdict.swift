/// One aggregate figure of an evaluation against its target (`eval steps --check` fails when any
/// is not met; `eval activity` judges its own the same way).
public struct TargetVerdict: Sendable, Equatable {
    /// Which way the target bounds the figure.
    public enum Comparison: String, Sendable {
        /// The figure must be at most the target (errors, false steps, latency).
        case atMost = "<="
        /// The figure must be at least the target (precision, recall, agreement).
        case atLeast = ">="
    }

    /// The evaluation set (`oxford`, `bangle_walks`, ...).
    public var set: String
    /// The figure's name (`mape_percent`, `recall`, ...), as in the JSON output.
    public var name: String
    /// The measured figure.
    public var value: Double
    /// The target.
    public var target: Double
    /// Which way it bounds the figure.
    public var comparison: Comparison

    /// Creates a verdict.
    public init(set: String, name: String, value: Double, target: Double, comparison: Comparison) {
        self.set = set
        self.name = name
        self.value = value
        self.target = target
        self.comparison = comparison
    }

    /// Whether the figure meets the target (a NaN figure never does).
    public var met: Bool {
        switch comparison {
        case .atMost: return value <= target
        case .atLeast: return value >= target
        }
    }
}
