/// The CSV of the Bangle.js `accellog` app (espruino/BangleApps `apps/accellog`): a header line
/// `Time (ms),X,Y,Z`, then one row per accelerometer event (12.5 Hz by default): milliseconds
/// since the recording started, and the three axes as integers, 8192 = 1 g.
///
/// Mapping (docs/dialects.md): `Time (ms)` → `timestamp_ns` (× 10^6); `X`, `Y`, `Z` → `accel_*`
/// × 9.80665 / 8192 m/s² (the watch's own axes, gravity included). No gyroscope.
struct BangleDialect: RecordingDialect {
    var name: String { "bangle" }
    var summary: String { "Bangle.js accellog CSV (Time (ms),X,Y,Z; 8192 = 1 g)" }

    static let header = ["Time (ms)", "X", "Y", "Z"]
    /// Raw units per g.
    static let countsPerG = 8192.0
    static let clock = "relative: milliseconds since the Bangle.js accellog recording started"

    func recognizes(_ prefix: [UInt8]) -> Bool {
        guard let line = RecordingLineBuffer.firstLine(of: prefix, allowPartial: true) else { return false }
        return Array(DelimitedFormat.detect(headerLine: line).names(line).prefix(4)) == Self.header
    }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        let metadata = [RecordingKey.clock: Self.clock, RecordingKey.device: "Bangle.js (accellog)"]
        return try TabularRowReader.open(source: source, prefix: prefix, options: options, metadata: metadata) { names, _ in
            guard Array(names.prefix(4)) == Self.header else {
                throw RecordingError(file: source.name, line: 1, column: 1,
                                     problem: "expected the accellog header 'Time (ms),X,Y,Z', found \(DiagnosticText.quoted(names.joined(separator: ","), limit: 80))")
            }
            let scale = AccelerationUnit.standardGravityValue / Self.countsPerG
            return TabularLayout(columnNames: names, time: 0, timeUnit: .milliseconds, accel: [1, 2, 3], accelScale: [scale, scale, scale])
        }
    }
}
