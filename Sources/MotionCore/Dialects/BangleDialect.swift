/// The CSV of the Bangle.js `accellog` app (espruino/BangleApps `apps/accellog`), in both its
/// formats: the older header `Time (ms),X,Y,Z` and the current `Time (ms),X,Y,Z,Total` (0.05 and
/// later, with the magnitude in `Total`), then one row per accelerometer event (12.5 Hz by
/// default): milliseconds since the recording started, and the three axes, either in g (the
/// current app's default, decimals) or as raw integers with 8192 = 1 g (the older app, and the
/// current one's "Log raw data" option).
///
/// The unit is told by magnitude: if any row in the first bytes of the file (the dialect's
/// sniffed prefix) has an |a| beyond ``rawThreshold`` (64: no wrist reaches 64 g, no raw row of
/// a moving or resting watch falls below 64 counts), the values are raw counts, else g.
///
/// Mapping (docs/dialects.md): `Time (ms)` → `timestamp_ns` (× 10^6); `X`, `Y`, `Z` → `accel_*`
/// × 9.80665 (g) or × 9.80665 / 8192 (raw) m/s² (the watch's own axes, gravity included); `Total`
/// is not read. No gyroscope.
struct BangleDialect: RecordingDialect {
    var name: String { "bangle" }
    var summary: String { "Bangle.js accellog CSV (Time (ms),X,Y,Z[,Total]; values in g, or raw with 8192 = 1 g)" }

    static let header = ["Time (ms)", "X", "Y", "Z"]
    /// Raw units per g.
    static let countsPerG = 8192.0
    /// An |a| above this in the first rows means raw counts, not g.
    static let rawThreshold = 64.0
    static let clock = "relative: milliseconds since the Bangle.js accellog recording started"

    func recognizes(_ prefix: [UInt8]) -> Bool {
        guard let line = RecordingLineBuffer.firstLine(of: prefix, allowPartial: true) else { return false }
        return Array(DelimitedFormat.detect(headerLine: line).names(line).prefix(4)) == Self.header
    }

    /// Whether the rows in `prefix` (after its header line) hold raw counts: any |a| above
    /// ``rawThreshold``. Rows that do not parse are left to the reader's errors.
    static func holdsRawCounts(_ prefix: [UInt8]) -> Bool {
        let lines = prefix.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).dropFirst()
        for line in lines {
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard fields.count >= 4 else { continue }
            let axes = fields[1...3].compactMap { Double(String(decoding: $0, as: UTF8.self).trimmingWhitespace()) }
            guard axes.count == 3 else { continue }
            if (axes[0] * axes[0] + axes[1] * axes[1] + axes[2] * axes[2]).squareRoot() > rawThreshold { return true }
        }
        return false
    }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        let raw = Self.holdsRawCounts(prefix)
        let metadata = [RecordingKey.clock: Self.clock,
                        RecordingKey.device: "Bangle.js (accellog, \(raw ? "raw counts, 8192 = 1 g" : "values in g"))"]
        return try TabularRowReader.open(source: source, prefix: prefix, options: options, metadata: metadata) { names, _ in
            guard Array(names.prefix(4)) == Self.header else {
                throw RecordingError(file: source.name, line: 1, column: 1,
                                     problem: "expected the accellog header 'Time (ms),X,Y,Z[,Total]', found \(DiagnosticText.quoted(names.joined(separator: ","), limit: 80))")
            }
            let scale = AccelerationUnit.standardGravityValue / (raw ? Self.countsPerG : 1)
            return TabularLayout(columnNames: names, time: 0, timeUnit: .milliseconds, accel: [1, 2, 3], accelScale: [scale, scale, scale])
        }
    }
}
