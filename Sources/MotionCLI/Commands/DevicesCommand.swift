import MotionCore
import MotionIIO
import MotionSystem

/// `motionbatch devices`: what the board can do — accelerometers, gyroscopes, step counters,
/// activity detectors, their channels, rates, hardware-FIFO abilities and whether they can be captured now.
enum DevicesCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "devices",
            abstract: "List IIO accelerometers, gyroscopes, step counters and activity detectors with rates, FIFO abilities and access state.",
            discussion: """
            Reads the IIO context at URI (default local:, this machine; ip:HOST[:PORT] for a board
            running iiod; xml:FILE for a saved description, which has no attribute values) and
            shows, for every motion device: channels and scan formats, scale, sampling frequency
            and the available ones, timestamp channel and clock, buffer support, hardware FIFO
            (buffer/hwfifo_*), hardware step counter (in_steps_*), hardware activity recognition
            (in_activity_*_input: confidence in percent per activity), and the access state checked
            now (available, permission-denied with the udev rule that fixes it, busy, ...), and the
            parent device (its sysfs path: what identifies the sensor across reboots and re-plugs,
            for `capture --device NAME@PARENT`).
            --scan lists the contexts libiio can reach instead (local and USB backends; network
            discovery needs libiio's DNS-SD support and avahi-daemon, so give ip:HOST with -u).
            """,
            options: ContextOptions.options + [
                .flag("scan", help: "List reachable IIO contexts (local, USB) instead of devices."),
                .flag("json", help: "Print one JSON object (keys documented in docs/iio-reader.md)."),
            ],
            run: run
        )
    }

    /// One device, its access state (nil when the backend cannot be probed, e.g. `ip:`) and its
    /// stable identity (the parent device's sysfs path on a local context).
    struct Entry {
        var sensor: SensorDescription
        var access: AccessState?
        var identity: DeviceIdentity? = nil
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        if args.flag("scan") { return try scan(args, &io) }
        let uri = ContextOptions.uri(args)
        let wantsJSON = args.flag("json")
        let context = try ContextOptions.open(args) { error, state in
            guard wantsJSON else { return }
            io.out(JSONValue.object([
                ("schema", .number(1)),
                ("uri", .string(uri)),
                ("error", .string(error.description)),
                ("access", state.map(accessJSON) ?? .null),
                ("devices", .array([])),
            ]).serialized(pretty: true))
        }
        let entries = SensorDiscovery.discover(in: context).map { s in
            Entry(sensor: s, access: context.isLocal ? AccessProbe.check(id: s.id, name: s.name, holdingBuffer: false) : nil,
                  identity: s.identity(local: context.isLocal))
        }
        if args.flag("json") {
            io.out(json(uri: uri, backend: context.backendName, entries).serialized(pretty: true))
        } else {
            io.writeOut(text(uri: uri, entries))
        }
    }

    /// `devices --scan`: the contexts libiio finds (``IIOScanContext``).
    static func scan(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        // Backend by backend, so that one that cannot scan here (no USB access) does not hide
        // the others; the network backend is not scanned (it needs avahi-daemon).
        var entries: [IIOScanContext.Entry] = []
        var failures: [(String, SystemError)] = []
        for backend in ["local", "usb"] {
            do { entries += try IIOScanContext.scan(backends: backend) } catch { failures.append((backend, error)) }
        }
        if failures.count == 2 {
            throw CLIError.failure("scanning for IIO contexts failed: " + failures.map { "\($0.0): \($0.1)" }.joined(separator: "; "))
        }
        for (b, e) in failures { io.err("warning: the \(b) backend could not scan: \(e)") }
        if args.flag("json") {
            io.out(JSONValue.object([
                ("schema", .number(1)),
                ("contexts", .array(entries.map { .object([("uri", .string($0.uri)), ("description", .string($0.description))]) })),
                ("failed_backends", .array(failures.map { .object([("backend", .string($0.0)), ("error", .string($0.1.description))]) })),
                ("network_discovery", .string("needs libiio DNS-SD support and avahi-daemon; give ip:HOST with -u")),
            ]).serialized(pretty: true))
        } else if entries.isEmpty {
            io.out("No IIO context found (local and USB backends; network boards are not discovered without avahi: use -u ip:HOST).")
        } else {
            let w = entries.map(\.uri.count).max() ?? 0
            for e in entries { io.out(e.uri + String(repeating: " ", count: w - e.uri.count) + "  " + e.description) }
        }
    }

    /// The `access` member: state name, message, remedy, and the file when permission is denied.
    static func accessJSON(_ s: AccessState) -> JSONValue {
        var members: [(String, JSONValue)] = [("state", .string(s.name)), ("message", .string(s.message)), ("remedy", .string(s.remedy))]
        if case .permissionDenied(_, let path) = s { members.append(("path", .string(path))); members.append(("udev_rule", .string(AccessState.udevRule))) }
        return .object(members)
    }

    /// The `--json` object (keys documented in docs/iio-reader.md).
    static func json(uri: String, backend: String, _ entries: [Entry]) -> JSONValue {
        .object([
            ("schema", .number(1)),
            ("uri", .string(uri)),
            ("backend", .string(backend)),
            ("devices", .array(entries.map { e in
                let s = e.sensor
                return .object([
                    ("id", .string(s.id)),
                    ("name", .string(s.name)),
                    ("label", s.label.map { .string($0) } ?? .null),
                    ("parent", e.identity?.parent.map { .string($0) } ?? .null),
                    ("kind", .string(s.kind.rawValue)),
                    ("access", e.access.map(accessJSON) ?? .null),
                    ("sampling_frequency_hz", .number(s.samplingFrequency)),
                    ("sampling_frequency_attribute", s.samplingFrequencyAttribute.map { .string($0) } ?? .null),
                    ("available_frequencies_hz", .array(s.availableFrequencies.map { .number($0) })),
                    ("buffer_capable", .bool(s.isBufferCapable)),
                    ("timestamp", .object([("channel", .bool(s.hasTimestamp)), ("clock", s.timestampClock.map { .string($0) } ?? .null)])),
                    ("fifo", .object([
                        ("present", .bool(s.fifo.isPresent)),
                        ("hwfifo_timeout", .bool(s.fifo.hasTimeout)),
                        ("timeout_s", .number(s.fifo.timeout)),
                        ("enabled", s.fifo.enabled.map { .bool($0) } ?? .null),
                        ("watermark_min", .number(s.fifo.watermarkMin.map(Double.init))),
                        ("watermark_max", .number(s.fifo.watermarkMax.map(Double.init))),
                    ])),
                    ("step_counter", s.stepCounter.map { c in .object([
                        ("steps", .number(c.steps.map(Double.init))),
                        ("enabled", c.enabled.map { .bool($0) } ?? .null),
                        ("attributes", .array(c.attributes.map { .string($0) })),
                    ]) } ?? .null),
                    ("activity", s.activity.map { a in .object([
                        ("current", a.current.map { .string($0) } ?? .null),
                        ("channels", .array(a.channels.map { c in .object([
                            ("modifier", .string(c.modifier)),
                            ("confidence_percent", c.confidence.map { .int(Int64($0)) } ?? .null),
                        ]) })),
                    ]) } ?? .null),
                    ("channels", .array(s.channels.map { c in .object([
                        ("id", .string(c.id)),
                        ("index", c.index.map { .number($0) } ?? .null),
                        ("format", c.format.map { .string($0.description) } ?? .null),
                        ("scale", .number(c.scale)),
                        ("offset", .number(c.offset)),
                    ]) })),
                ])
            })),
        ])
    }

    static func text(uri: String, _ entries: [Entry]) -> String {
        guard !entries.isEmpty else { return "No accelerometer, gyroscope, step counter or activity detector found in \(uri).\n" }
        var out = ""
        for e in entries {
            let s = e.sensor
            out += "\(s.id)  \(s.name)\(s.label.map { " (\($0))" } ?? "")  \(s.kind.rawValue)\n"
            if let parent = e.identity?.parent {
                out += "  parent:      \(parent) (select with --device \(s.name)@\(parent.split(separator: "/").suffix(2).joined(separator: "/")))\n"
            }
            if let a = e.access {
                out += "  access:      \(a.name)\(a == .available ? "" : " — \(a.message)")\n"
                if a != .available { out += a.remedy.split(separator: "\n").map { "               \($0)\n" }.joined() }
            }
            var rate = s.samplingFrequency.map { "\($0.compactText) Hz" } ?? "unknown"
            if !s.availableFrequencies.isEmpty { rate += " (available: \(s.availableFrequencies.map(\.compactText).joined(separator: " ")))" }
            out += "  rate:        \(rate)\n"
            out += "  timestamp:   \(s.hasTimestamp ? "yes" : "no")\(s.timestampClock.map { ", clock \($0)" } ?? "")\n"
            out += "  buffer:      \(s.isBufferCapable ? "yes" : "no")\n"
            var fifo: [String] = []
            if s.fifo.hasTimeout { fifo.append("hwfifo_timeout\(s.fifo.timeout.map { " = \(formatFixed($0, 3)) s" } ?? "")") }
            if let en = s.fifo.enabled { fifo.append("enabled \(en ? "yes" : "no")") }
            if s.fifo.watermarkMin != nil || s.fifo.watermarkMax != nil {
                fifo.append("watermark \(s.fifo.watermarkMin.map(String.init) ?? "?")..\(s.fifo.watermarkMax.map(String.init) ?? "?")")
            }
            out += "  hw FIFO:     \(fifo.isEmpty ? "none" : fifo.joined(separator: ", "))\n"
            if let c = s.stepCounter {
                out += "  steps:       \(c.steps.map(String.init) ?? "?")\(c.enabled.map { $0 ? " (enabled)" : " (disabled)" } ?? "")\n"
            }
            if let a = s.activity {
                out += "  activity:    " + a.channels.map { "\($0.modifier) \($0.confidence.map { "\($0) %" } ?? "?")" }.joined(separator: ", ")
                    + (a.current.map { " (current: \($0))" } ?? "") + "\n"
            }
            out += "  channels:\n"
            for c in s.channels {
                var line = "    \(c.id)"
                if let f = c.format, let i = c.index { line += "  [\(i)] \(f)" }
                if let sc = c.scale { line += "  scale \(sc)" }
                if let o = c.offset, o != 0 { line += "  offset \(o)" }
                out += line + "\n"
            }
        }
        return out
    }
}
