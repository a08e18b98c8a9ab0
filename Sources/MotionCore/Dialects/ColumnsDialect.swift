/// Any CSV whose first line names its columns, read through a column mapping: `--columns
/// time=t,x=ax,y=ay,z=az[,gx=..,gy=..,gz=..][,label=..]` with `--time-unit s|ms|us|ns`,
/// `--accel-unit m/s2|g|mg` and `--gyro-unit rad/s|deg/s` (``RecordingDialectOptions``). Without
/// `--columns`, MotionBatch's column names in any order (`time_s` or `timestamp_ns`, `accel_x`...,
/// `gyro_x`..., `label`): recognised from the content when they are not in plain CSV's one order.
/// Comma, tab or semicolon separated (a decimal comma with the last two).
///
/// Mapping (docs/dialects.md): time × its unit → `timestamp_ns` (exactly from the digits);
/// values × the unit's factor → m/s² and rad/s, axes as named.
struct ColumnsDialect: RecordingDialect {
    static let dialectName = "columns"
    var name: String { Self.dialectName }
    var summary: String { "any CSV with a header line, through --columns time=..,x=..,y=..,z=.. and --time-unit/--accel-unit/--gyro-unit (MotionBatch's column names in any order need none)" }

    static let defaultAccel = ["accel_x", "accel_y", "accel_z"]
    static let defaultGyro = ["gyro_x", "gyro_y", "gyro_z"]

    /// Every name MotionBatch's columns may have (without `--columns`, a header of only these).
    static let knownNames: Set<String> = Set(["time_s", "timestamp_ns", "label"] + defaultAccel + defaultGyro)

    /// MotionBatch's column names in another order (plain CSV's own order is the `plain` dialect's):
    /// each at most once, nothing else (a column it would not read is left to the CSV parser's
    /// "unknown column" error rather than ignored).
    func recognizes(_ prefix: [UInt8]) -> Bool {
        guard let line = RecordingLineBuffer.firstLine(of: prefix) else { return false }
        let names = DelimitedFormat.detect(headerLine: line).names(line)
        return Self.defaultAccel.allSatisfy(names.contains) && (names.contains("time_s") != names.contains("timestamp_ns"))
            && names.allSatisfy(Self.knownNames.contains) && Set(names).count == names.count
    }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        let o = options.dialect
        let clock = "as in the source file's time column"
        return try TabularRowReader.open(source: source, prefix: prefix, options: options, metadata: [RecordingKey.clock: clock]) { names, _ in
            let file = source.name
            func find(_ name: String, _ role: String) throws -> Int {
                guard let i = try TabularRowReader.column(name, in: names, file: file) else {
                    throw RecordingError(file: file, line: 1, column: 1,
                                         problem: "no column \(DiagnosticText.quoted(name)) for '\(role)' (the header has \(DiagnosticText.quoted(names.joined(separator: ", "), limit: 120)))")
                }
                return i
            }
            let selection: ColumnSelection
            if let given = o.columns {
                selection = given
            } else {
                let time = names.contains("timestamp_ns") ? "timestamp_ns" : "time_s"
                let present = Self.defaultGyro.filter(names.contains)
                if let missing = Self.defaultGyro.first(where: { !names.contains($0) }), !present.isEmpty {
                    throw RecordingError(file: file, line: 1, column: names.count + 1,
                                         problem: "missing column '\(missing)' (with \(present.joined(separator: ", ")), give all of gyro_x, gyro_y and gyro_z)")
                }
                let gyro = present.isEmpty ? nil : Self.defaultGyro
                selection = ColumnSelection(time: time, accel: Self.defaultAccel, gyro: gyro, label: names.contains("label") ? "label" : nil)
            }
            let time = try find(selection.time, "time")
            let unit: TimeUnit
            if let u = o.timeUnit {
                unit = u
            } else if selection.time == "timestamp_ns" {
                unit = .nanoseconds
            } else if selection.time == "time_s" {
                unit = .seconds
            } else {
                throw RecordingError(file: file, line: 1, column: time + 1, columnName: selection.time,
                                     problem: "the unit of the time column is not known: give --time-unit (\(TimeUnit.names))")
            }
            let accel = try zip(selection.accel, ["x", "y", "z"]).map { try find($0, $1) }
            let gyro = try selection.gyro.map { g in try zip(g, ["gx", "gy", "gz"]).map { try find($0, $1) } }
            let label = try selection.label.map { try find($0, "label") }
            let a = (o.accelUnit ?? .metersPerSecondSquared).metersPerSecondSquared
            let g = (o.gyroUnit ?? .radiansPerSecond).radiansPerSecond
            return TabularLayout(columnNames: names, time: time, timeUnit: unit, accel: accel, accelScale: [a, a, a],
                                 gyro: gyro, gyroScale: [g, g, g], label: label)
        }
    }
}
