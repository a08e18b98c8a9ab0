/// The classifier's current activity beside a sensor's own activity recognition (the Linux IIO
/// `in_activity_{still,walking,jogging,running}_input` channels of e.g. a BMA400 or MMA9553),
/// reported side by side instead of silently preferring either.
public struct HardwareActivityComparison: Sendable, Equatable {
    /// The classifier's current class (nil when it did not run).
    public var ours: ActivityClass?
    /// The chip's current activity, as its channel modifier (`still`, `walking`, `jogging`, `running`).
    public var hardwareModifier: String?

    /// Creates a comparison.
    public init(ours: ActivityClass?, hardwareModifier: String?) {
        self.ours = ours
        self.hardwareModifier = hardwareModifier
    }

    /// The class a hardware modifier stands for: `jogging` and `running` are ``ActivityClass/running``;
    /// nil for a modifier the classifier has no class for.
    public static func activityClass(ofModifier m: String) -> ActivityClass? {
        switch m {
        case "still": return .still
        case "walking": return .walking
        case "jogging", "running": return .running
        default: return nil
        }
    }

    /// The chip's activity as a class.
    public var hardware: ActivityClass? { hardwareModifier.flatMap(Self.activityClass(ofModifier:)) }

    /// Whether both name the same class (nil when either is missing).
    public var agree: Bool? {
        guard let o = ours, let h = hardware else { return nil }
        return o == h
    }

    /// A one-line report, e.g. `activity walking (hardware: jogging = running, differs)`.
    public var summary: String {
        let h = hardwareModifier.map { m in hardware.map { $0.rawValue == m ? m : "\(m) = \($0.rawValue)" } ?? m } ?? "none"
        let verdict = agree.map { $0 ? "agrees" : "differs" } ?? "not comparable"
        return "activity \(ours?.rawValue ?? "-") (hardware: \(h), \(verdict))"
    }
}
