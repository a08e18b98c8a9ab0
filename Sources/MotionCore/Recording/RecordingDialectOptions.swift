/// What a dialect cannot learn from the file itself, given by the user: the columns of an
/// arbitrary CSV and their units (`--columns`, `--time-unit`, `--accel-unit`, `--gyro-unit`: the
/// `columns` dialect), or the scan layout of a raw IIO buffer (`--layout`: the `iio` dialect).
public struct RecordingDialectOptions: Sendable, Equatable {
    /// Which columns hold the time, the three acceleration axes and optionally the gyroscope and a label.
    public var columns: ColumnSelection?
    /// The time column's unit (default: from its name, `time_s` or `timestamp_ns`).
    public var timeUnit: TimeUnit?
    /// The acceleration columns' unit (default m/s²).
    public var accelUnit: AccelerationUnit?
    /// The gyroscope columns' unit (default rad/s).
    public var gyroUnit: AngularRateUnit?
    /// The scan layout of a raw IIO buffer.
    public var scanLayout: IIOBufferLayout?
    /// The zone of a device file whose times are local without one (Axivity CWA, ActiLife CSV,
    /// a GT3X whose info.txt names none): `--tz`. docs/research.md, "Time".
    public var timeZone: UTCOffset?

    /// No options.
    public init(columns: ColumnSelection? = nil, timeUnit: TimeUnit? = nil, accelUnit: AccelerationUnit? = nil,
                gyroUnit: AngularRateUnit? = nil, scanLayout: IIOBufferLayout? = nil) {
        self.columns = columns
        self.timeUnit = timeUnit
        self.accelUnit = accelUnit
        self.gyroUnit = gyroUnit
        self.scanLayout = scanLayout
    }

    /// The dialect these options imply (`iio` with a layout, `columns` with a column or unit
    /// option), or nil when none is given.
    public var impliedDialect: String? {
        if scanLayout != nil { return IIOBufferDialect.dialectName }
        if columns != nil || timeUnit != nil || accelUnit != nil || gyroUnit != nil { return ColumnsDialect.dialectName }
        return nil
    }
}

/// The columns of `--columns time=t,x=ax,y=ay,z=az[,gx=..,gy=..,gz=..][,label=..]`: header names
/// (compared exactly, after removing quotes and spaces around them).
public struct ColumnSelection: Sendable, Equatable {
    /// The time column.
    public var time: String
    /// The x, y, z acceleration columns.
    public var accel: [String]
    /// The x, y, z gyroscope columns, if any.
    public var gyro: [String]?
    /// A label column, if any.
    public var label: String?

    /// The roles `--columns` accepts.
    public static let roles = ["time", "x", "y", "z", "gx", "gy", "gz", "label"]

    /// Creates a selection.
    public init(time: String, accel: [String], gyro: [String]? = nil, label: String? = nil) {
        self.time = time
        self.accel = accel
        self.gyro = gyro
        self.label = label
    }

    /// Parses `time=t,x=ax,y=ay,z=az[,gx=..,gy=..,gz=..][,label=..]`.
    /// - Throws: ``ColumnSelectionError`` naming what is wrong (an unknown role, a role given twice,
    ///   `time`/`x`/`y`/`z` missing, some but not all of `gx`/`gy`/`gz`).
    public init(parsing text: String) throws(ColumnSelectionError) {
        var given: [String: String] = [:]
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex, item.index(after: eq) != item.endIndex else {
                throw ColumnSelectionError(text: text, problem: "expected ROLE=COLUMN, found \(DiagnosticText.quoted(String(item)))")
            }
            let role = String(item[..<eq]).trimmingWhitespace()
            let column = String(item[item.index(after: eq)...]).trimmingWhitespace()
            guard Self.roles.contains(role) else {
                throw ColumnSelectionError(text: text, problem: "unknown role \(DiagnosticText.quoted(role)) (roles: \(Self.roles.joined(separator: ", ")))")
            }
            guard given[role] == nil else { throw ColumnSelectionError(text: text, problem: "role '\(role)' given twice") }
            guard !column.isEmpty, DiagnosticText.isPrintable(column.utf8) else {
                throw ColumnSelectionError(text: text, problem: "column name for '\(role)' must be printable text")
            }
            given[role] = column
        }
        for role in ["time", "x", "y", "z"] where given[role] == nil {
            throw ColumnSelectionError(text: text, problem: "missing '\(role)=COLUMN' (time, x, y and z are required)")
        }
        let gyroRoles = ["gx", "gy", "gz"].map { given[$0] }
        if gyroRoles.contains(where: { $0 != nil }) && gyroRoles.contains(where: { $0 == nil }) {
            throw ColumnSelectionError(text: text, problem: "give all of gx, gy and gz, or none")
        }
        self.init(time: given["time"]!, accel: [given["x"]!, given["y"]!, given["z"]!],
                  gyro: gyroRoles[0] == nil ? nil : gyroRoles.map { $0! }, label: given["label"])
    }
}

/// A `--columns` value that cannot be used.
public struct ColumnSelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text given.
    public var text: String
    /// What is wrong with it.
    public var problem: String
    /// `invalid column selection 'TEXT': PROBLEM`.
    public var description: String { "invalid column selection \(DiagnosticText.quoted(text, limit: 80)): \(problem)" }
}
