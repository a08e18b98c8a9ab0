/// The `info.txt` of an ActiGraph `.gt3x` file: `Key: value` lines (actigraph/GT3X-File-Format,
/// `info.txt.md`). Dates are .NET ticks (100 ns since 0001-01-01) of the device's local time;
/// `TimeZone` (`-05:00:00`), when present, is that time's offset from UTC.
struct GT3XInfo: Sendable, Equatable {
    /// Every `Key: value` line, keys and values trimmed (a key given twice keeps the first).
    var fields: [String: String]
    /// `Serial Number` (`NEO1C04110003`, `TAS1E42150038`).
    var serial: String
    /// `Sample Rate`, Hz (ActiGraph devices record at 30-100 Hz).
    var sampleRate: Int
    /// `Start Date`: ns since the local epoch (local wall time), nil when absent.
    var startLocalNs: Int64?
    /// `TimeZone`, nil when absent.
    var timeZone: UTCOffset?
    /// `Acceleration Scale` (counts per g), nil when absent.
    var accelerationScale: Double?

    /// .NET ticks of 1970-01-01T00:00.
    static let unixEpochTicks: Int64 = 621_355_968_000_000_000

    /// Parses the text of `info.txt` (`file` names it in errors).
    /// - Throws: ``RecordingError`` for a missing or bad `Sample Rate`, or a bad date or time zone.
    init(text: [UInt8], file: String) throws {
        var fields: [String: String] = [:]
        var bytes = text[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var lineNumber = 0
        var lines: [String: Int] = [:]
        for raw in bytes.split(separator: 10, omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = String(decoding: raw, as: UTF8.self)
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon]).trimmingWhitespace()
            let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            if fields[key] == nil { fields[key] = value; lines[key] = lineNumber }
        }
        self.fields = fields
        serial = fields["Serial Number"] ?? ""
        func error(_ key: String, _ problem: String) -> RecordingError {
            RecordingError(file: file, line: lines[key], problem: "\(key): \(problem)")
        }
        guard let rateText = fields["Sample Rate"] else {
            throw RecordingError(file: file, line: nil, problem: "has no 'Sample Rate' line (an ActiGraph info.txt gives it in Hz)")
        }
        // Whole Hz (30, 40, ... 100): "30" or "30.0".
        guard let rate = Double(rateText), rate.rounded() == rate, (1...10_000).contains(rate) else {
            throw error("Sample Rate", "expected a whole number of Hz from 1 to 10000, found \(DiagnosticText.quoted(rateText))")
        }
        sampleRate = Int(rate)
        if let start = fields["Start Date"] {
            guard let ticks = Int64(start), ticks > 0 else { throw error("Start Date", "expected .NET ticks, found \(DiagnosticText.quoted(start))") }
            let ns = (ticks - Self.unixEpochTicks).multipliedReportingOverflow(by: 100)
            guard !ns.overflow, InputLimits.containsTimestamp(ns.partialValue) else {
                throw error("Start Date", "\(ticks) ticks is out of range (allowed \(InputLimits.timestampRangeText))")
            }
            startLocalNs = ns.partialValue
        }
        if let tz = fields["TimeZone"] {
            guard let offset = UTCOffset(parsing: tz) else { throw error("TimeZone", "expected an offset such as -05:00:00, found \(DiagnosticText.quoted(tz))") }
            timeZone = offset
        }
        if let s = fields["Acceleration Scale"] {
            guard let v = Double(s), v >= 1, v <= 1_000_000 else { throw error("Acceleration Scale", "expected counts per g (256.0), found \(DiagnosticText.quoted(s))") }
            accelerationScale = v
        }
    }

    /// The counts per g ActiGraph documents for a serial number when nothing else says
    /// (`Activity2.md`): 341 for NEO and CLE (±6 g), 256 for MOS (±8 g); nil when unknown.
    var scaleFromSerial: Double? {
        if serial.hasPrefix("NEO") || serial.hasPrefix("CLE") || serial.hasPrefix("MRA") { return 341 }
        if serial.hasPrefix("MOS") || serial.hasPrefix("TAS") { return 256 }
        return nil
    }
}
