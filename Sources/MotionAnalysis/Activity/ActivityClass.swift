/// What the wearer of the sensor is doing, as the activity classifier reports it: the classes
/// phones report to apps (Android's activity recognition, iOS's motion activity), minus tilting.
public enum ActivityClass: String, CaseIterable, Sendable, Hashable, Comparable {
    /// Not moving: the sensor lies, or the wearer sits, stands or lies (sensor noise, small sway).
    case still
    /// Walking, stairs included: periodic gait at a moderate amplitude.
    case walking
    /// Running or jogging: periodic gait with impacts above about 0.7 g (vertical acceleration).
    case running
    /// Pedalling: continuous leg motion without gait impacts.
    case cycling
    /// In a car, bus or train: sustained small vibration without gait periodicity (stops included).
    case vehicle
    /// None of the above with enough evidence (fidgeting, transitions, arm work), or no data.
    case unknown

    /// Position in ``allCases`` (the order of every per-class table).
    public var index: Int {
        switch self {
        case .still: 0
        case .walking: 1
        case .running: 2
        case .cycling: 3
        case .vehicle: 4
        case .unknown: 5
        }
    }

    /// The class at `index` in ``allCases``.
    /// - Precondition: `0 <= index < 6`.
    public init(index: Int) {
        switch index {
        case 0: self = .still
        case 1: self = .walking
        case 2: self = .running
        case 3: self = .cycling
        case 4: self = .vehicle
        case 5: self = .unknown
        default: preconditionFailure("activity class index out of range")
        }
    }

    /// The number of classes (``allCases``' count), without building the list.
    @inlinable
    public static var count: Int { 6 }

    /// Whether the step counter may count steps during this activity (everything but ``vehicle``).
    public var allowsSteps: Bool { self != .vehicle }

    /// Ordered as ``allCases``.
    public static func < (a: ActivityClass, b: ActivityClass) -> Bool { a.index < b.index }
}
