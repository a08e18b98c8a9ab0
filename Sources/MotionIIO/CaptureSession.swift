/// The life of one capture as a state machine: `idle → preparing → active → stopping → saved`.
/// It does no I/O: each event returns the actions the driver must perform, so every path —
/// including failures and signals — ends with the buffers released and the sensor idle.
public struct CaptureSession: Sendable {
    /// Where the capture is.
    public enum State: String, Hashable, Sendable {
        /// Nothing started.
        case idle
        /// Checking access and configuring the devices.
        case preparing
        /// Buffers enabled, samples flowing.
        case active
        /// Releasing buffers and restoring settings.
        case stopping
        /// Everything released and the recording closed.
        case saved
    }

    /// Why the capture ended.
    public enum StopReason: Hashable, Sendable {
        /// The requested duration elapsed.
        case duration
        /// The requested sample count was reached.
        case sampleCount
        /// SIGINT/SIGTERM.
        case signal(Int32)
        /// The device was removed.
        case lost(String)
        /// Preparing or reading failed (access state or error text).
        case failed(String)

        /// Whether the capture ended as asked (not through a failure).
        public var isClean: Bool {
            switch self {
            case .duration, .sampleCount, .signal: true
            case .lost, .failed: false
            }
        }

        /// Stable name for `--json`.
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

    /// What happens to the session.
    public enum Event: Hashable, Sendable {
        /// The user starts a capture.
        case start
        /// Access is available and devices are configured.
        case prepared
        /// The capture must end.
        case stop(StopReason)
        /// Buffers destroyed, settings restored.
        case released
        /// Recording written and synced.
        case recordingClosed
    }

    /// What the driver must do.
    public enum Action: Hashable, Sendable {
        /// Check access state fresh and configure rate, FIFO, timestamps.
        case checkAccessAndConfigure
        /// Create buffers and start the wait loop.
        case startStreaming
        /// Cancel and destroy every buffer, restore FIFO settings.
        case releaseBuffers
        /// Flush and fsync the recording.
        case closeRecording
    }

    /// Current state.
    public private(set) var state: State = .idle
    /// Why it stopped, once stopping.
    public private(set) var stopReason: StopReason?

    /// Creates an idle session.
    public init() {}

    /// Applies an event; returns the actions to perform (empty when the event does not apply
    /// in the current state, e.g. a second stop).
    public mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.idle, .start):
            state = .preparing
            return [.checkAccessAndConfigure]
        case (.preparing, .prepared):
            state = .active
            return [.startStreaming]
        case (.preparing, .stop(let r)), (.active, .stop(let r)):
            state = .stopping
            stopReason = r
            return [.releaseBuffers]
        case (.stopping, .released):
            return [.closeRecording]
        case (.stopping, .recordingClosed):
            state = .saved
            return []
        default:
            return []
        }
    }
}
