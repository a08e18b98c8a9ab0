/// When a session closes its recording and starts the next one (`--rotate SECONDS|SIZE`). A
/// recording is never split inside a batch: the decision is taken before each batch, from what
/// the current recording already holds.
public enum RotationPolicy: Hashable, Sendable {
    /// One recording (until the device is lost).
    case never
    /// A new recording for the first batch that starts `nanoseconds` or more after the current
    /// recording's first sample (sample time): recordings of `period` plus less than one batch.
    case every(nanoseconds: Int64)
    /// A new recording once the current one holds `bytes` or more (it may exceed them by less
    /// than one batch).
    case size(bytes: Int64)

    /// Whether the batch whose first sample is at `first` (ns) goes into a new recording, given
    /// the current one's first sample time (nil: it holds no rows yet) and size.
    public func rotates(beforeBatchAt first: Int64, recordingStart: Int64?, recordingBytes: Int64) -> Bool {
        guard let start = recordingStart else { return false }
        switch self {
        case .never: return false
        case .every(let period): return first - start >= period
        case .size(let limit): return recordingBytes >= limit
        }
    }
}
