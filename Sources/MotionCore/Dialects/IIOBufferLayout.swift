/// The scan layout of a raw IIO buffer capture (`iio_readdev`, `/dev/iio:deviceN`), which the
/// bytes themselves do not carry: the enabled channels in scan-index order with their storage
/// format (`le:s16/16>>0`, as `scan_elements/*_type` states it), scale and offset. Given as text
/// (`--layout`) or taken from a `motionbatch devices --json` snapshot of the device.
///
/// Text form: channels separated by `,`, each `ID:FORMAT[:SCALE[:OFFSET]]`, in scan order, e.g.
/// `accel_x:le:s16/16>>0:0.000598,accel_y:le:s16/16>>0:0.000598,accel_z:le:s16/16>>0:0.000598,timestamp:le:s64/64>>0`.
/// `SCALE` (SI units per raw unit, the channel's `in_*_scale`) defaults to 1 and `OFFSET` (added to
/// the raw value before scaling) to 0; the value is `(raw + OFFSET) × SCALE` as the IIO ABI says.
/// Channel ids: `accel_x/y/z` (m/s²), `anglvel_x/y/z` (rad/s), `timestamp` (ns); others are
/// skipped over by their storage size.
public struct IIOBufferLayout: Sendable, Equatable {
    /// One channel: id, storage format, scale and offset.
    public struct Channel: Sendable, Equatable {
        public var id: String
        public var format: ScanElementFormat
        public var scale: Double
        public var offset: Double

        /// Creates a channel.
        public init(id: String, format: ScanElementFormat, scale: Double = 1, offset: Double = 0) {
            self.id = id
            self.format = format
            self.scale = scale
            self.offset = offset
        }
    }

    /// The enabled channels, in scan order.
    public var channels: [Channel]
    /// The device's name, when the layout comes from a snapshot.
    public var device: String?
    /// The timestamp clock (`current_timestamp_clock`), when known.
    public var clock: String?
    /// The sampling frequency the snapshot reports, Hz.
    public var samplingFrequency: Double?

    /// A layout of `channels` in scan order.
    /// - Throws: ``IIOLayoutError`` when no accelerometer (`accel_x/y/z`) or timestamp channel is
    ///   enabled, or an id repeats, or a scale or offset is outside its rule.
    public init(channels: [Channel], device: String? = nil, clock: String? = nil, samplingFrequency: Double? = nil) throws(IIOLayoutError) {
        self.channels = channels
        self.device = device
        self.clock = clock
        self.samplingFrequency = samplingFrequency
        let ids = channels.map(\.id)
        for (i, id) in ids.enumerated() where ids[..<i].contains(id) {
            throw IIOLayoutError(problem: "channel '\(DiagnosticText.escaped(id.utf8))' appears twice")
        }
        guard ["accel_x", "accel_y", "accel_z"].allSatisfy(ids.contains) else {
            throw IIOLayoutError(problem: "the layout needs the accelerometer's accel_x, accel_y and accel_z (channels: \(DiagnosticText.escaped(ids.joined(separator: ", ").utf8, limit: 120)))")
        }
        guard let ts = channels.first(where: { $0.id == "timestamp" }) else {
            throw IIOLayoutError(problem: "the layout needs the timestamp channel (iio_readdev enables it unless channels are named; name 'timestamp' too)")
        }
        guard ts.format.storageBits == 64, ts.format.repeatCount == 1 else {
            throw IIOLayoutError(problem: "the timestamp channel must be a 64-bit value (le:s64/64>>0), found \(ts.format)")
        }
        for c in channels where !(Self.scaleRule.contains(c.scale) && c.scale != 0) || !Self.offsetRule.contains(c.offset) {
            throw IIOLayoutError(problem: "channel '\(DiagnosticText.escaped(c.id.utf8))': scale \(c.scale.compactText) and offset \(c.offset.compactText) must be within \(Self.scaleRule.rangeText) (scale not 0) and \(Self.offsetRule.rangeText)")
        }
    }

    /// Scales accepted: enough for any sensor (a raw unit of at most 10^6 SI units).
    static let scaleRule = ValueRule("scale", unit: "", -1e6...1e6)
    /// Offsets accepted (raw units).
    static let offsetRule = ValueRule("offset", unit: "", -1e12...1e12)

    /// The scan layout (offsets of each element, bytes per scan) by the kernel's rule.
    public var scanLayout: ScanLayout {
        ScanLayout(channels: channels.enumerated().map { (id: $0.element.id, index: $0.offset, format: $0.element.format) })
    }

    /// The text form (see the type's description), as `--layout` takes it.
    public var text: String {
        channels.map { c in
            "\(c.id):\(c.format)" + (c.scale != 1 || c.offset != 0 ? ":\(c.scale.compactText)" : "") + (c.offset != 0 ? ":\(c.offset.compactText)" : "")
        }.joined(separator: ",")
    }

    /// Parses the text form.
    /// - Throws: ``IIOLayoutError`` naming the channel and what is wrong.
    public init(parsing text: String) throws(IIOLayoutError) {
        var channels: [Channel] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
            guard parts.count >= 3, parts.count <= 5, !parts[0].isEmpty else {
                throw IIOLayoutError(problem: "expected ID:FORMAT[:SCALE[:OFFSET]] (FORMAT such as le:s16/16>>0), found \(DiagnosticText.quoted(String(item)))")
            }
            let format: ScanElementFormat
            do { format = try ScanElementFormat(parsing: parts[1] + ":" + parts[2]) } catch {
                throw IIOLayoutError(problem: "channel '\(DiagnosticText.escaped(parts[0].utf8))': \(error)")
            }
            func number(_ i: Int, _ what: String) throws(IIOLayoutError) -> Double? {
                guard i < parts.count else { return nil }
                guard let v = DecimalScanner.double(parts[i]) else {
                    throw IIOLayoutError(problem: "channel '\(DiagnosticText.escaped(parts[0].utf8))': bad \(what) \(DiagnosticText.quoted(parts[i]))")
                }
                return v
            }
            channels.append(Channel(id: parts[0], format: format, scale: try number(3, "scale") ?? 1, offset: try number(4, "offset") ?? 0))
        }
        try self.init(channels: channels)
    }

    /// The layout of the device `device` (id such as `iio:device0`, or name such as
    /// `accel_3d`) in a `motionbatch devices --json` snapshot: its channels with a scan index
    /// and format (what `iio_readdev` enables by default), their scale and offset, its timestamp
    /// clock and sampling frequency. Without `device`, the snapshot's one device with an
    /// accelerometer's scan channels.
    /// - Throws: ``IIOLayoutError`` with the file, line and column of the problem.
    public init(devicesJSON bytes: [UInt8], file: String, device: String?) throws(IIOLayoutError) {
        let root: JSONNode
        do { root = try JSONReader.parse(bytes) } catch {
            throw IIOLayoutError(problem: "\(file):\(error)")
        }
        guard case .array(let devices)? = root["devices"]?.value else {
            throw IIOLayoutError(problem: "\(file):\(root.position): expected the object 'motionbatch devices --json' prints, with a 'devices' array")
        }
        func string(_ node: JSONNode?) -> String? { if case .string(let s)? = node?.value { return s } else { return nil } }
        func number(_ node: JSONNode?) -> Double? { if case .number(let v)? = node?.value { return v } else { return nil } }
        func hasAccel(_ d: JSONNode) -> Bool {
            guard case .array(let cs)? = d["channels"]?.value else { return false }
            return cs.contains { string($0["id"]) == "accel_x" && string($0["format"]) != nil }
        }
        let chosen: [JSONNode]
        if let device {
            chosen = devices.filter { string($0["id"]) == device || string($0["name"]) == device }
        } else {
            chosen = devices.filter(hasAccel)
        }
        let names = devices.map { "\(string($0["id"]) ?? "?") (\(string($0["name"]) ?? "?"))" }.joined(separator: ", ")
        guard chosen.count == 1, let d = chosen.first else {
            let what = device.map { "no device '\(DiagnosticText.escaped($0.utf8))'" } ?? (chosen.isEmpty ? "no device with an accelerometer" : "\(chosen.count) devices with an accelerometer")
            throw IIOLayoutError(problem: "\(file): \(what) in the snapshot (devices: \(DiagnosticText.escaped(names.utf8, limit: 160))); name one: --layout \(file)#DEVICE")
        }
        guard case .array(let cs)? = d["channels"]?.value else {
            throw IIOLayoutError(problem: "\(file):\(d.position): the device has no 'channels' array")
        }
        var indexed: [(index: Double, channel: Channel)] = []
        for c in cs {
            guard let id = string(c["id"]), let formatText = string(c["format"]), let index = number(c["index"]) else { continue }
            let format: ScanElementFormat
            do { format = try ScanElementFormat(parsing: formatText) } catch {
                throw IIOLayoutError(problem: "\(file):\(c.position): channel '\(DiagnosticText.escaped(id.utf8))': \(error)")
            }
            indexed.append((index, Channel(id: id, format: format, scale: number(c["scale"]) ?? 1, offset: number(c["offset"]) ?? 0)))
        }
        indexed.sort { $0.index < $1.index }
        do {
            try self.init(channels: indexed.map(\.channel), device: string(d["name"]), clock: string(d["timestamp"]?["clock"]),
                          samplingFrequency: number(d["sampling_frequency_hz"]))
        } catch {
            throw IIOLayoutError(problem: "\(file): device \(DiagnosticText.escaped((string(d["id"]) ?? "?").utf8)): \(error.problem)")
        }
    }
}

/// A scan layout that cannot be used.
public struct IIOLayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var problem: String
    /// `invalid scan layout: PROBLEM`.
    public var description: String { "invalid scan layout: \(problem)" }
}
