/// The length of the epochs a recording is summarised in (`epochs --per`).
public enum EpochLength: String, CaseIterable, Sendable {
    /// A local calendar day.
    case day
    /// A local clock hour.
    case hour
    /// A clock minute.
    case minute

    /// Minutes in one epoch.
    public var minutes: Int64 {
        switch self {
        case .day: 1440
        case .hour: 60
        case .minute: 1
        }
    }
}
