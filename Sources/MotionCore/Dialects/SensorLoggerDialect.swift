/// Sensor Logger's export (Android and iOS): a zip, or its folder, with one CSV per sensor, each
/// `time,seconds_elapsed,z,y,x` (the columns found by name, whatever their order), and
/// `Metadata.csv` (`version, device name, recording time, platform, ...`).
///
/// Mapping (docs/dialects.md): `time` (Unix epoch, ns, UTC) → `timestamp_ns` as is. The
/// acceleration with gravity is `TotalAcceleration.csv` where present (Android); otherwise
/// `Accelerometer.csv` (gravity removed, on both platforms) plus `Gravity.csv` interpolated at its
/// times (iOS), and, for an iOS recording (Metadata's `platform`, or no `TotalAcceleration.csv`),
/// all three axes negated to Android's (and Linux IIO's) convention unless Metadata says
/// "Standardise Units & Frames" was on. `Gyroscope.csv` (rad/s) is interpolated at the
/// accelerometer's times. Accelerometer and gravity in m/s² (g = 9.80665).
///
/// A single CSV in this layout is read when its name says it is `TotalAcceleration`; any other
/// single file is refused with what to give instead.
struct SensorLoggerDialect: RecordingDialect {
    var name: String { "sensor-logger" }
    var summary: String { "Sensor Logger export (zip or folder: TotalAcceleration.csv or Accelerometer.csv + Gravity.csv, Gyroscope.csv, Metadata.csv)" }

    static let clock = "CLOCK_REALTIME: Unix epoch, UTC (Sensor Logger's time column)"

    /// A first line holding `time` and `seconds_elapsed` then the axes.
    func recognizes(_ prefix: [UInt8]) -> Bool {
        guard let line = RecordingLineBuffer.firstLine(of: prefix, allowPartial: true) else { return false }
        return Self.isSensorLoggerHeader(DelimitedFormat.detect(headerLine: line).names(line))
    }

    static func isSensorLoggerHeader(_ names: [String]) -> Bool {
        names.count >= 5 && names[0] == "time" && names[1] == "seconds_elapsed" && ["x", "y", "z"].allSatisfy(names.contains)
    }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        let base = (source.name.split(separator: "/").last.map(String.init) ?? source.name).lowercased()
        guard base.hasPrefix("totalacceleration") else {
            let why: String
            if base.hasPrefix("accelerometer") {
                why = "Sensor Logger's Accelerometer.csv has gravity removed; give the recording's folder or zip (Gravity.csv or TotalAcceleration.csv completes it)"
            } else if base.hasPrefix("gyroscope") || base.hasPrefix("gravity") {
                why = "holds no accelerometer; give the recording's folder or zip"
            } else {
                why = "is a Sensor Logger CSV, but its name does not say which sensor it holds; give the recording's folder or zip (or a file named TotalAcceleration.csv)"
            }
            throw RecordingError(file: source.name, line: 1, column: 1, problem: why)
        }
        return try Self.streamReader(source: source, prefix: prefix, options: options, metadata: [RecordingKey.clock: Self.clock], sign: 1, rule: InputLimits.acceleration)
    }

    /// One sensor's rows: `time` in ns, `x`, `y`, `z` times `sign` (laid out in the samples' `accel`).
    static func streamReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions, metadata: [String: String],
                             sign: Double, rule: ValueRule) throws -> OrderedRows {
        try TabularRowReader.open(source: source, prefix: prefix, options: options, metadata: metadata) { names, _ in
            guard isSensorLoggerHeader(names) else {
                throw RecordingError(file: source.name, line: 1, column: 1,
                                     problem: "expected Sensor Logger's columns 'time,seconds_elapsed,z,y,x', found \(DiagnosticText.quoted(names.joined(separator: ","), limit: 100))")
            }
            let axes = try ["x", "y", "z"].map { try TabularRowReader.column($0, in: names, file: source.name)! }
            return TabularLayout(columnNames: names, time: 0, timeUnit: .nanoseconds, accel: axes, accelScale: [sign, sign, sign], accelRule: rule)
        }
    }

    // MARK: - The export's folder or zip

    func recognizes(archive: any RecordingArchive) -> Bool {
        for file in ["TotalAcceleration.csv", "Accelerometer.csv"] {
            guard let m = try? archive.member(named: file), let prefix = try? archive.prefix(of: m),
                  let line = RecordingLineBuffer.firstLine(of: prefix, allowPartial: true) else { continue }
            if Self.isSensorLoggerHeader(DelimitedFormat.detect(headerLine: line).names(line)) { return true }
        }
        return false
    }

    func makeReader(archive: any RecordingArchive, options: RecordingReadOptions) throws -> any RecordingRowReader {
        let meta = try Self.metadataRow(archive)
        let platform = meta["platform"]?.lowercased()
        let standardised = ["true", "yes", "on", "1", "enabled"].contains((meta["standardisation"] ?? meta["standardization"] ?? "").lowercased())
        var metadata = [RecordingKey.clock: Self.clock]
        if let device = meta["device name"], !device.isEmpty { metadata[RecordingKey.device] = DiagnosticText.escaped(device.utf8, limit: 120) }
        var secondaries: [(role: AlignedRows.Role, reader: any RecordingRowReader, name: String)] = []
        let primary: OrderedRows
        let total = try archive.member(named: "TotalAcceleration.csv")
        if let total {
            primary = try Self.streamReader(source: try archive.open(total), prefix: [], options: options, metadata: metadata, sign: 1, rule: InputLimits.acceleration)
        } else {
            guard let accel = try archive.member(named: "Accelerometer.csv") else {
                throw RecordingError(file: archive.name, line: nil, problem: "holds neither TotalAcceleration.csv nor Accelerometer.csv")
            }
            guard let gravity = try archive.member(named: "Gravity.csv") else {
                throw RecordingError(file: archive.name + "/" + accel, line: 1, column: 1,
                                     problem: "Sensor Logger's Accelerometer.csv has gravity removed, and the recording has no Gravity.csv (or TotalAcceleration.csv) to complete it: record it with the Gravity sensor on")
            }
            // iOS reports acceleration and gravity with all axes negated against Android (and IIO).
            let iOS = platform.map { $0 == "ios" } ?? true
            let sign: Double = iOS && !standardised ? -1 : 1
            metadata["axes"] = sign < 0 ? "iOS frame negated to Android's (Accelerometer.csv + Gravity.csv)" : "as recorded (Accelerometer.csv + Gravity.csv)"
            primary = try Self.streamReader(source: try archive.open(accel), prefix: [], options: options, metadata: metadata, sign: sign, rule: InputLimits.acceleration)
            let g = try archive.open(gravity)
            secondaries.append((.gravity, try Self.streamReader(source: g, prefix: [], options: options, metadata: [:], sign: sign, rule: InputLimits.acceleration), g.name))
        }
        if let gyro = try archive.member(named: "Gyroscope.csv") {
            let g = try archive.open(gyro)
            secondaries.append((.gyroscope, try Self.streamReader(source: g, prefix: [], options: options, metadata: [:], sign: 1, rule: InputLimits.angularRate), g.name))
        }
        var header = primary.header
        if secondaries.contains(where: { $0.role == .gyroscope }) { header.sensors.insert(.gyro) }
        if let first = try Self.firstTime(archive, total ?? (try archive.member(named: "Accelerometer.csv"))!) {
            header.metadata[RecordingKey.startUTC] = UTCTime.iso8601(first)
        }
        return secondaries.isEmpty ? primary : AlignedRows(primary: primary, secondaries: secondaries, header: header)
    }

    /// `Metadata.csv`'s first row by column name (lowercased names), empty without one.
    static func metadataRow(_ archive: any RecordingArchive) throws -> [String: String] {
        guard let m = try archive.member(named: "Metadata.csv") else { return [:] }
        let text = try archive.prefix(of: m, count: 1 << 16)
        let lines = text.split(separator: 0x0A, omittingEmptySubsequences: true).map { l in Array(l.last == 0x0D ? l.dropLast() : l) }
        guard lines.count >= 2 else { return [:] }
        let format = DelimitedFormat.detect(headerLine: lines[0])
        let names = format.names(lines[0]).map { $0.lowercased() }
        let values = format.names(lines[1])
        var out: [String: String] = [:]
        for (i, n) in names.enumerated() where i < values.count { out[n] = values[i] }
        return out
    }

    /// The `time` of the first row of `member` (for `start_utc`), if it parses.
    static func firstTime(_ archive: any RecordingArchive, _ member: String) throws -> Int64? {
        let text = try archive.prefix(of: member)
        let lines = text.split(separator: 0x0A).prefix(2).map { l in Array(l.last == 0x0D ? l.dropLast() : l) }
        guard lines.count == 2, let field = DelimitedFormat.detect(headerLine: lines[0]).names(lines[1]).first,
              let t = DecimalScanner.int64(field), InputLimits.containsTimestamp(t) else { return nil }
        return t
    }
}
