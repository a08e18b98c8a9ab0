/// The unit of a time column (`--time-unit`).
public enum TimeUnit: String, CaseIterable, Sendable {
    case seconds = "s"
    case milliseconds = "ms"
    case microseconds = "us"
    case nanoseconds = "ns"

    /// Decimal digits between the unit and a nanosecond (9 for seconds ... 0 for nanoseconds).
    var fractionDigits: Int {
        switch self {
        case .seconds: return 9
        case .milliseconds: return 6
        case .microseconds: return 3
        case .nanoseconds: return 0
        }
    }

    /// The unit named `text` (`s`, `ms`, `us`, `µs`, `ns`), or nil.
    public init?(name text: String) {
        if text == "µs" { self = .microseconds; return }
        self.init(rawValue: text)
    }

    /// The accepted names, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// The unit of acceleration columns (`--accel-unit`).
public enum AccelerationUnit: String, CaseIterable, Sendable {
    case metersPerSecondSquared = "m/s2"
    case standardGravity = "g"
    case milliG = "mg"

    /// Standard gravity, m/s² (the value the apps use: Sensor Logger, Android's `GRAVITY_EARTH`).
    public static let standardGravityValue = 9.80665

    /// m/s² per unit.
    public var metersPerSecondSquared: Double {
        switch self {
        case .metersPerSecondSquared: return 1
        case .standardGravity: return Self.standardGravityValue
        case .milliG: return Self.standardGravityValue / 1000
        }
    }

    /// The unit named `text` (`m/s2`, `m/s^2`, `g`, `mg`), or nil.
    public init?(name text: String) {
        if text == "m/s^2" || text == "m/s²" { self = .metersPerSecondSquared; return }
        self.init(rawValue: text)
    }

    /// The accepted names, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// The unit of gyroscope columns (`--gyro-unit`).
public enum AngularRateUnit: String, CaseIterable, Sendable {
    case radiansPerSecond = "rad/s"
    case degreesPerSecond = "deg/s"

    /// rad/s per unit.
    public var radiansPerSecond: Double {
        switch self {
        case .radiansPerSecond: return 1
        case .degreesPerSecond: return Double.pi / 180
        }
    }

    /// The unit named `text` (`rad/s`, `deg/s`, `dps`, `°/s`), or nil.
    public init?(name text: String) {
        if text == "dps" || text == "°/s" { self = .degreesPerSecond; return }
        self.init(rawValue: text)
    }

    /// The accepted names, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
