/// ActiLife's raw CSV export (ActiGraph's desktop software): a header block, then one sample
/// per line in g.
///
/// ```
/// ------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.4 Firmware v2.5.0 date format M/d/yyyy at 30 Hz  Filter Normal -----------
/// Serial Number: NEO1C04110003
/// Start Time 11:55:00
/// Start Date 12/20/2021
/// Epoch Period (hh:mm:ss) 00:00:00
/// ...
/// --------------------------------------------------
/// Accelerometer X,Accelerometer Y,Accelerometer Z
/// -0.015,0.029,-1.006
/// ```
///
/// Mapping (docs/dialects.md): sample `k` (the k-th line after the column line) is at
/// `Start Date` + `Start Time` + k / rate (the rate of the first line's `at N Hz`), local time
/// without a zone: UTC with `--tz`, else kept local (`time_basis: device-local`); a
/// `Timestamp` column, when exported, is ActiLife's rendering of the same and not read.
/// `Accelerometer X/Y/Z` (g) × 9.80665 → `accel_x/y/z` m/s². Other columns are ignored.
struct ActiLifeCSVDialect: RecordingDialect {
    static let dialectName = "actilife"
    var name: String { Self.dialectName }
    var summary: String { "ActiLife raw CSV export (a '---- Data File Created By ActiGraph' header block, values in g)" }

    static let signature = Array("------------ Data File Created By ActiGraph".utf8)

    func recognizes(_ prefix: [UInt8]) -> Bool {
        var p = prefix[...]
        if p.starts(with: [0xEF, 0xBB, 0xBF]) { p = p.dropFirst(3) }
        return p.starts(with: Self.signature)
    }

    /// Header lines read before the column line, at most.
    static let maxHeaderLines = 40

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        let lines = RecordingLineBuffer(source: source, prefix: prefix, capacity: options.bufferSize)
        var header = ActiLifeHeader()
        var number = 0
        var columnLine: [UInt8]?
        while number < Self.maxHeaderLines {
            number += 1
            let line = try lines.headerLine(name: source.name, number: number, what: number == 1 ? "ActiLife header line" : "header line")
            let text = String(decoding: line, as: UTF8.self).trimmingWhitespace()
            if number == 1 {
                guard recognizes(line) else {
                    throw RecordingError(file: source.name, line: 1, column: 1, problem: "expected ActiLife's first line '------------ Data File Created By ActiGraph ...', found \(DiagnosticText.quoted(line, limit: 60))")
                }
                try header.parseTitle(text, file: source.name)
                continue
            }
            if text.hasPrefix("-----") { columnLine = try lines.headerLine(name: source.name, number: number + 1, what: "column header line"); number += 1; break }
            try header.parse(line: text, number: number, file: source.name)
        }
        guard let columnLine else {
            throw RecordingError(file: source.name, line: number, column: 1, problem: "no '-----' line ending ActiLife's header block within its first \(Self.maxHeaderLines) lines")
        }
        // `number` is the column header's line now, one after the block's `-----`.
        let start = try header.startLocalNs(file: source.name, blockEnd: number - 1)
        let (timeMetadata, offset) = DeviceTimeBasis.metadata(offset: options.dialect.timeZone, source: "--tz")
        let format = DelimitedFormat.detect(headerLine: columnLine)
        let names = format.names(columnLine)
        let axes = try ["Accelerometer X", "Accelerometer Y", "Accelerometer Z"].map { axis -> Int in
            guard let i = try TabularRowReader.column(axis, in: names, file: source.name) else {
                throw RecordingError(file: source.name, line: number, column: 1, problem: "expected ActiLife's columns 'Accelerometer X,Accelerometer Y,Accelerometer Z', found \(DiagnosticText.quoted(names.joined(separator: ","), limit: 100))")
            }
            return i
        }
        let g = AccelerationUnit.standardGravityValue
        // The time is the sample's position: TabularRowReader parses the X column as a
        // placeholder time, which ActiLifeRows replaces.
        let layout = TabularLayout(columnNames: names, time: axes[0], timeUnit: .seconds, accel: axes, accelScale: [g, g, g])
        var metadata = timeMetadata
        metadata[RecordingKey.device] = DiagnosticText.escaped(("ActiGraph " + [header.device, header.serial].compactMap { $0 }.joined(separator: " ")).utf8, limit: 120)
        metadata[RecordingKey.actualHz] = String(header.rate!)
        let startNs = offset.utc(fromLocal: start)
        if offset != .utc || options.dialect.timeZone != nil { metadata[RecordingKey.startUTC] = UTCTime.iso8601(startNs) }
        let recordingHeader = RecordingHeader(format: .plain, sensors: .accel, metadata: metadata)
        let rows = TabularRowReader(name: source.name, lines: lines, linesBefore: number, format: format, layout: layout, header: recordingHeader)
        return OrderedRows(source: ActiLifeRows(rows: rows, firstLine: number + 1, startNs: startNs, rate: header.rate!))
    }
}

/// ActiLife's rows with each sample's time from its position: line `firstLine + k` is at
/// `startNs + k / rate`.
final class ActiLifeRows: RecordingSampleSource {
    private let rows: TabularRowReader
    private let firstLine: Int
    private let startNs: Int64
    private let rate: Int

    init(rows: TabularRowReader, firstLine: Int, startNs: Int64, rate: Int) {
        self.rows = rows
        self.firstLine = firstLine
        self.startNs = startNs
        self.rate = rate
    }

    var header: RecordingHeader { rows.header }
    var warnings: [RecordingWarning] { rows.warnings }
    var lineNumber: Int { rows.lineNumber }
    var bytesRead: Int { rows.bytesRead }
    var name: String { rows.name }
    var timeColumn: String { "Accelerometer X" }

    func read(into samples: inout [Sample], labels: inout [String?], lines: inout [Int], maxSamples: Int) throws -> Int {
        let first = samples.count
        let n = try rows.read(into: &samples, labels: &labels, lines: &lines, maxSamples: maxSamples)
        for i in first..<(first + n) {
            let k = lines[lines.count - n + (i - first)] - firstLine
            samples[i].timestamp = startNs + Int64(k / rate) * 1_000_000_000 + GT3XLogDecoder.offsetNs(k % rate, rate: rate)
        }
        return n
    }
}
