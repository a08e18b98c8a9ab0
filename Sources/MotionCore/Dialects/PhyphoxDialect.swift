/// phyphox's CSV export (RWTH Aachen; Android and iOS): one file per export set with a quoted
/// header line (`"Time (s)","Acceleration x (m/s^2)",...`), or the zip (or its unzipped folder)
/// with one CSV per set (`Raw Data.csv`, or `Accelerometer.csv` and `Gyroscope.csv`) and `meta/`
/// (`device.csv`, `time.csv`). Every separator and decimal mark the export dialog offers is read
/// (comma, tab, semicolon; decimal point or comma).
///
/// Mapping (docs/dialects.md): `Time (s)` is seconds from the start of the measurement (phyphox's
/// experiment time) → `timestamp_ns`; `Acceleration x/y/z (m/s^2)` ("Acceleration with g",
/// gravity included) → `accel_*` as is; `Gyroscope x/y/z (rad/s)` → `gyro_*` as is (in another
/// set, interpolated at the accelerometer's times); other columns (`Absolute acceleration`) are
/// ignored. `Linear Acceleration` (gravity removed) is refused: it is another signal. A row with
/// `NaN` (phyphox's filler for a shorter column) is dropped and counted.
struct PhyphoxDialect: RecordingDialect {
    var name: String { "phyphox" }
    var summary: String { "phyphox CSV export (\"Time (s)\",\"Acceleration x (m/s^2)\",...; comma, tab or semicolon; the zip or its folder)" }

    static let timeColumn = "Time (s)"
    static let accelColumns = ["Acceleration x (m/s^2)", "Acceleration y (m/s^2)", "Acceleration z (m/s^2)"]
    static let gyroColumns = ["Gyroscope x (rad/s)", "Gyroscope y (rad/s)", "Gyroscope z (rad/s)"]
    static let linearColumns = ["Linear Acceleration x (m/s^2)", "Linear Acceleration y (m/s^2)", "Linear Acceleration z (m/s^2)"]
    static let clock = "relative: seconds since the phyphox measurement started (its experiment time)"

    /// A first line whose first field is `Time (s)`.
    func recognizes(_ prefix: [UInt8]) -> Bool {
        guard let line = RecordingLineBuffer.firstLine(of: prefix, allowPartial: true) else { return false }
        return DelimitedFormat.detect(headerLine: line).names(line).first == Self.timeColumn
    }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        try Self.setReader(source: source, prefix: prefix, options: options, metadata: [RecordingKey.clock: Self.clock], needsAccel: true)
    }

    /// The rows of one export set: accelerometer columns (and gyroscope ones when present), or
    /// with `needsAccel` false, only the gyroscope's (laid out in the samples' `accel`, for ``AlignedRows``).
    static func setReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions,
                          metadata: [String: String], needsAccel: Bool) throws -> OrderedRows {
        try TabularRowReader.open(source: source, prefix: prefix, options: options, metadata: metadata) { names, _ in
            let file = source.name
            guard let time = try TabularRowReader.column(timeColumn, in: names, file: file) else {
                throw RecordingError(file: file, line: 1, column: 1, problem: "missing column \(DiagnosticText.quoted(timeColumn))")
            }
            let accel = try accelColumns.map { try TabularRowReader.column($0, in: names, file: file) }
            let gyro = try gyroColumns.map { try TabularRowReader.column($0, in: names, file: file) }
            if needsAccel {
                guard accel.allSatisfy({ $0 != nil }) else {
                    if let linear = names.firstIndex(where: { linearColumns.contains($0) }) {
                        throw RecordingError(file: file, line: 1, column: linear + 1, columnName: names[linear],
                                             problem: "phyphox's 'Linear Acceleration' has gravity removed; MotionBatch needs the acceleration with gravity (export the 'Acceleration with g' experiment)")
                    }
                    throw RecordingError(file: file, line: 1, column: 1,
                                         problem: "no acceleration columns (expected \(accelColumns.map { "'\($0)'" }.joined(separator: ", ")); found \(DiagnosticText.quoted(names.joined(separator: ", "), limit: 120)))")
                }
                let hasGyro = gyro.allSatisfy { $0 != nil }
                return TabularLayout(columnNames: names, time: time, timeUnit: .seconds, accel: accel.map { $0! }, accelScale: [1, 1, 1],
                                     gyro: hasGyro ? gyro.map { $0! } : nil)
            }
            guard gyro.allSatisfy({ $0 != nil }) else {
                throw RecordingError(file: file, line: 1, column: 1, problem: "no gyroscope columns (expected \(gyroColumns.map { "'\($0)'" }.joined(separator: ", ")))")
            }
            return TabularLayout(columnNames: names, time: time, timeUnit: .seconds, accel: gyro.map { $0! }, accelScale: [1, 1, 1],
                                 accelRule: InputLimits.angularRate)
        }
    }

    // MARK: - The zip export or its folder

    /// phyphox's `meta/` files beside at least one set whose header starts with `Time (s)`.
    func recognizes(archive: any RecordingArchive) -> Bool {
        guard archive.members.contains(where: { $0.hasSuffix("meta/time.csv") || $0.hasSuffix("meta/device.csv") }) else { return false }
        return !((try? Self.sets(archive)) ?? []).isEmpty
    }

    /// The export sets (members outside `meta/` whose first field is `Time (s)`), with their columns.
    static func sets(_ archive: any RecordingArchive) throws -> [(member: String, names: [String])] {
        var out: [(String, [String])] = []
        for m in archive.members where m.lowercased().hasSuffix(".csv") && !m.contains("meta/") {
            guard let line = RecordingLineBuffer.firstLine(of: try archive.prefix(of: m), allowPartial: true) else { continue }
            let names = DelimitedFormat.detect(headerLine: line).names(line)
            if names.first == timeColumn { out.append((m, names)) }
        }
        return out
    }

    func makeReader(archive: any RecordingArchive, options: RecordingReadOptions) throws -> any RecordingRowReader {
        let sets = try Self.sets(archive)
        let withAccel = sets.filter { s in Self.accelColumns.allSatisfy(s.names.contains) }
        guard withAccel.count == 1 else {
            if withAccel.isEmpty, let linear = sets.first(where: { s in Self.linearColumns.allSatisfy(s.names.contains) }) {
                throw RecordingError(file: archive.name + "/" + linear.member, line: 1, column: 1,
                                     problem: "phyphox's 'Linear Acceleration' has gravity removed; MotionBatch needs the acceleration with gravity (export the 'Acceleration with g' experiment)")
            }
            throw RecordingError(file: archive.name, line: nil, problem: withAccel.isEmpty
                ? "holds no phyphox set with acceleration columns (\(Self.accelColumns.map { "'\($0)'" }.joined(separator: ", ")))"
                : "holds \(withAccel.count) phyphox sets with acceleration columns (\(withAccel.map { DiagnosticText.quoted($0.member) }.joined(separator: ", "))): give one")
        }
        var metadata = [RecordingKey.clock: Self.clock]
        metadata.merge(try Self.meta(archive, options: options)) { a, _ in a }
        let accelSet = withAccel[0]
        let accelSource = try archive.open(accelSet.member)
        let primary = try Self.setReader(source: accelSource, prefix: [], options: options, metadata: metadata, needsAccel: true)
        if primary.header.sensors.contains(.gyro) { return primary }
        let gyroSets = sets.filter { s in s.member != accelSet.member && Self.gyroColumns.allSatisfy(s.names.contains) }
        guard gyroSets.count <= 1 else {
            throw RecordingError(file: archive.name, line: nil, problem: "holds \(gyroSets.count) phyphox sets with gyroscope columns: give one")
        }
        guard let gyroSet = gyroSets.first else { return primary }
        let gyroSource = try archive.open(gyroSet.member)
        let gyro = try Self.setReader(source: gyroSource, prefix: [], options: options, metadata: [:], needsAccel: false)
        var header = primary.header
        header.sensors.insert(.gyro)
        return AlignedRows(primary: primary, secondaries: [(.gyroscope, gyro, gyroSource.name)], header: header)
    }

    /// What `meta/device.csv` (`deviceBrand`, `deviceModel`) and `meta/time.csv` (the first
    /// `START` event's system time, seconds since the epoch) say: `device` and `start_utc`.
    static func meta(_ archive: any RecordingArchive, options: RecordingReadOptions) throws -> [String: String] {
        var out: [String: String] = [:]
        if let m = archive.members.first(where: { $0.hasSuffix("meta/device.csv") }) {
            let rows = try keyValueRows(archive, m, options: options)
            let device = ["deviceBrand", "deviceModel"].compactMap { k in rows.first { $0.first == k }.flatMap { $0.count > 1 ? $0[1] : nil } }
                .filter { !$0.isEmpty }.joined(separator: " ")
            if !device.isEmpty { out[RecordingKey.device] = DiagnosticText.escaped(device.utf8, limit: 120) }
        }
        if let m = archive.members.first(where: { $0.hasSuffix("meta/time.csv") }) {
            let rows = try keyValueRows(archive, m, options: options)
            if let start = rows.first(where: { $0.first == "START" }), start.count > 2,
               let seconds = DecimalScanner.double(start[2].replacingOccurrences(of: ",", with: ".")), abs(seconds) < 4e9 {
                out[RecordingKey.startUTC] = UTCTime.iso8601(Int64((seconds * 1e9).rounded()))
            }
        }
        return out
    }

    /// The fields of every line of a small `meta/` CSV (at most 64 KiB read).
    private static func keyValueRows(_ archive: any RecordingArchive, _ member: String, options: RecordingReadOptions) throws -> [[String]] {
        let text = try archive.prefix(of: member, count: 1 << 16)
        let lines = text.split(separator: 0x0A).map { l in Array(l.last == 0x0D ? l.dropLast() : l) }
        guard let first = lines.first else { return [] }
        let format = DelimitedFormat.detect(headerLine: first)
        return lines.dropFirst().map { format.names($0) }
    }
}
