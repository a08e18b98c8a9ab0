#if canImport(Glibc)
import MotionCore
import Glibc
#endif
import CUHID
import MotionSystem

/// The thin I/O loop around ``VirtualSensorHub``: creates the uhid device, polls its fd and a
/// signalfd with a timeout set by the hub's next deadline, turns uhid events into hub events and
/// hub actions into uhid writes, and destroys the device on SIGINT/SIGTERM or when the recording
/// ended (after `linger`). Time is CLOCK_MONOTONIC.
public struct EmulatorRunner {
    /// Run settings.
    public struct Options: Sendable {
        /// HID device name (shown by the kernel; not the IIO name).
        public var name: String
        /// The uhid character device.
        public var uhidPath: String
        /// Seconds to keep the device after the recording ended (no loop), so readers can drain.
        public var linger: Double
        /// When set, rewritten with the current state after every SET_REPORT (``OutputFile``:
        /// a temporary file renamed into place, so readers never see a partial file).
        public var statusFile: String?
        /// Creates options.
        public init(name: String, uhidPath: String = "/dev/uhid", linger: Double = 1, statusFile: String? = nil) {
            self.name = name
            self.uhidPath = uhidPath
            self.linger = linger
            self.statusFile = statusFile
        }
    }

    /// Why the loop ended.
    public enum ExitReason: String, Sendable {
        case signal, recordingEnded = "recording-ended"
    }

    /// What a run produced.
    public struct Outcome: Sendable {
        /// Why it stopped.
        public var reason: ExitReason
        /// The signal number when stopped by one.
        public var signal: Int32?
        /// Seconds from device creation to destruction.
        public var elapsed: Double
        /// Whether the kernel started the device (UHID_START seen).
        public var started: Bool
        /// The hub's final state.
        public var hub: VirtualSensorHub
        /// Hub time (ns) at device creation.
        public var origin: Int64
    }

    /// Runs `hub` on a new uhid device until a signal arrives or the recording ends.
    /// - Parameters:
    ///   - log: receives progress lines (for stderr).
    ///   - status: called with the status JSON at start and after each SET_REPORT (also written to
    ///     `statusFile`).
    /// - Throws: ``SystemError`` when a uhid call fails (the device is destroyed by closing the fd).
    public static func run(hub: VirtualSensorHub, options: Options, log: (String) -> Void,
                           status: (JSONValue) -> Void = { _ in }) throws(SystemError) -> Outcome {
        var hub = hub
        let sigfd = cuhid_termination_signalfd()
        guard sigfd >= 0 else { throw SystemError(.current, call: "signalfd", subject: options.uhidPath) }
        defer { close(sigfd) }
        let device = try UHIDDevice(path: options.uhidPath)
        try device.create(name: options.name, descriptor: hub.layout.descriptor)
        let origin = MonotonicClock.nanoseconds()
        var started = false
        var endedAt: Int64?
        var reason = ExitReason.signal
        var signal: Int32?
        var statusFailed = false
        func writeStatus() {
            let json = statusJSON(hub: hub, origin: origin, started: started)
            status(json)
            if let path = options.statusFile {
                do { try OutputFile.write(json.serialized(pretty: true) + "\n", to: path) } catch {
                    if !statusFailed { log("cannot write the status file: \(error)") }
                    statusFailed = true
                }
            }
        }
        writeStatus()

        func perform(_ actions: [HubAction]) throws(SystemError) {
            for a in actions {
                switch a {
                case .sendInput(let r): try device.sendInput(r)
                case let .replyGetReport(id, err, data): try device.replyGetReport(requestID: id, error: err, data: data)
                case let .replySetReport(id, err): try device.replySetReport(requestID: id, error: err)
                case .recordingEnded:
                    endedAt = MonotonicClock.nanoseconds()
                    log("recording ended; removing the device in \(options.linger) s")
                }
            }
        }

        loop: while true {
            let now = MonotonicClock.nanoseconds()
            try perform(hub.advance(to: now))
            if let e = endedAt, now - e >= Int64(options.linger * 1e9) { reason = .recordingEnded; break }
            var timeoutMs: Int32 = 1000
            if let d = hub.nextDeadline { timeoutMs = Int32(clamping: max(0, (d - now + 999_999) / 1_000_000)) }
            if let e = endedAt { timeoutMs = min(timeoutMs, Int32(clamping: max(0, (e + Int64(options.linger * 1e9) - now + 999_999) / 1_000_000))) }
            timeoutMs = min(timeoutMs, 1000)
            var fds = [pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: sigfd, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, timeoutMs)
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError(.current, call: "poll", subject: options.uhidPath)
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                signal = cuhid_read_signal(sigfd)
                reason = .signal
                break loop
            }
            if fds[0].revents & Int16(POLLERR | POLLHUP) != 0 {
                throw SystemError(.ioError, call: "poll (device hung up)", subject: options.uhidPath)
            }
            while let event = try device.readEvent() {
                switch event {
                case .start: started = true; log("kernel started the device")
                case .stop: log("kernel stopped the device")
                case .request(let e):
                    try perform(hub.handle(e, now: MonotonicClock.nanoseconds()))
                    if case .setReport = e { writeStatus() }
                default: break
                }
            }
        }
        let elapsed = Double(MonotonicClock.nanoseconds() - origin) / 1e9
        try device.destroy()
        let outcome = Outcome(reason: reason, signal: signal, elapsed: elapsed, started: started, hub: hub, origin: origin)
        return outcome
    }

    /// The status/summary JSON: `started`, `elapsed_s`, `sensors` (see ``VirtualSensorHub/sensorsJSON(origin:)``).
    public static func statusJSON(hub: VirtualSensorHub, origin: Int64, started: Bool) -> JSONValue {
        .object([
            ("started", .bool(started)),
            ("elapsed_s", .double(Double(MonotonicClock.nanoseconds() - origin) / 1e9)),
            ("sensors", hub.sensorsJSON(origin: origin)),
        ])
    }
}
