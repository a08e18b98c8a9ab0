import MotionSystem

/// Why a capture could not start or ended on an error: typed, so callers `switch` on the case
/// (the CLI maps each to a message and a remedy) instead of parsing text.
public enum CaptureFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing to capture (no accelerometer or gyroscope selected).
    case noSensors
    /// The access state explains the failure (checked fresh after it); `error` is the call that
    /// failed, when one did (a probe before starting finds problems without a call failing).
    case access(AccessState, error: SystemError?)
    /// The request cannot be planned for the device (rate, batch, latency).
    case plan(CapturePlanError)
    /// The requested range cannot be applied (see ``CaptureRange``).
    case range(CaptureRangeError)
    /// A call failed and the device is present and accessible: a plain error.
    case system(SystemError)
    /// libiio's scan size differs from the layout computed from the scan elements.
    case layoutMismatch(device: String, bufferStep: Int, computedStep: Int)
    /// `poll` reported an error condition on a buffer whose device is still there.
    case pollError(device: String)
    /// The sink (the recording) failed at `stage`.
    case recording(stage: RecordingStage, detail: String)

    /// Where the sink failed.
    public enum RecordingStage: String, Hashable, Sendable {
        /// Creating it (``CaptureSink/begin(_:)``).
        case create
        /// Appending a batch.
        case write
        /// Flushing and closing it.
        case close
    }

    /// The access state behind the failure, when there is one.
    public var accessState: AccessState? {
        if case .access(let s, _) = self { return s }
        return nil
    }

    /// One paragraph: what is wrong, what to do, the failing call.
    public var description: String {
        switch self {
        case .noSensors: "no accelerometer or gyroscope to capture"
        case let .access(state, error):
            [state.message, state.remedy, error.map { "(\($0))" } ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
        case .plan(let e): e.description
        case .range(let e): e.description
        case .system(let e): "\(e)"
        case let .layoutMismatch(device, step, computed):
            "\(device): scan size \(step) bytes differs from the computed layout (\(computed) bytes)"
        case .pollError(let d): "poll reported an error on \(d)"
        case let .recording(stage, detail):
            switch stage {
            case .create: "the recording could not be created: \(detail)"
            case .write: "writing the recording failed: \(detail)"
            case .close: "closing the recording failed: \(detail)"
            }
        }
    }
}

/// Why a capture ended.
public enum CaptureStopReason: Hashable, Sendable {
    /// The requested duration elapsed.
    case duration
    /// The requested sample count was reached.
    case sampleCount
    /// SIGINT/SIGTERM (the signal number).
    case signal(Int32)
    /// The device was removed (``AccessState/lost(device:)``), or the connection to the board
    /// was lost (``AccessState/disconnected(uri:)``).
    case lost(AccessState)
    /// Preparing or reading failed.
    case failed(CaptureFailure)

    /// Whether the capture ended as asked (not through a failure).
    public var isClean: Bool {
        switch self {
        case .duration, .sampleCount, .signal: true
        case .lost, .failed: false
        }
    }

    /// Stable name for `--json`: `duration`, `samples`, `signal`, `lost`, `failed`.
    public var name: String {
        switch self {
        case .duration: "duration"
        case .sampleCount: "samples"
        case .signal: "signal"
        case .lost: "lost"
        case .failed: "failed"
        }
    }
}
