import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// Header quirks the docs promise to handle (issue 25, case 7), alike in every text dialect:
/// spaces around quoted names, a trailing separator on the header or the rows; a column beyond
/// the header named once in messages; and the held-value rule that ignores the few milliseconds
/// by which a phone's sensors start apart.
struct HeaderQuirkTests {
    /// The phyphox fixture's lines with `edit` applied to its header and each row.
    static func phyphox(header: (String) -> String = { $0 }, row: (String) -> String = { $0 }) throws -> String {
        let lines = try String(contentsOfFile: DialectFixtures.path("walk/phyphox-comma.csv"), encoding: .utf8).split(separator: "\n").map(String.init)
        return try TestPaths.scratchFile(([header(lines[0])] + lines.dropFirst().map(row)).joined(separator: "\n") + "\n", name: "phyphox.csv")
    }

    static func read(_ path: String, options: RecordingDialectOptions = RecordingDialectOptions()) throws -> Recording {
        try Recording.read(RecordingReader(input: .path(path), dialect: options.impliedDialect.flatMap(RecordingDialects.named),
                                           options: RecordingReadOptions(dialect: options)))
    }

    @Test func spacesBeforeQuotedNamesAndTrailingSeparatorsAreNoColumns() throws {
        let reference = try Self.read(DialectFixtures.path("walk/phyphox-comma.csv")).samples
        #expect(reference.count > 100)
        let variants = [
            try Self.phyphox(header: { $0.replacingOccurrences(of: "\",\"", with: "\", \"") }),
            try Self.phyphox(header: { " " + $0.replacingOccurrences(of: "\",\"", with: "\" ,  \"") }),
            try Self.phyphox(row: { $0 + "," }),
            try Self.phyphox(header: { $0 + "," }, row: { $0 + "," }),
            try Self.phyphox(header: { $0 + "," }),
        ]
        for path in variants {
            let r = try Self.read(path)
            #expect(r.samples == reference, "\(path)")
        }
    }

    @Test func columnsFindsSpacedQuotedNames() throws {
        let text = "\"t_ms\", \"ax_g\", \"ay_g\", \"az_g\",\n" + (0..<50).map { "\($0 * 20), 0.01, 0.02, 1.0,\n" }.joined()
        let path = try TestPaths.scratchFile(text, name: "quoted.csv")
        let options = RecordingDialectOptions(columns: ColumnSelection(time: "t_ms", accel: ["ax_g", "ay_g", "az_g"]), timeUnit: .milliseconds, accelUnit: .standardGravity)
        let r = try Self.read(path, options: options)
        #expect(r.samples.count == 50)
        #expect(abs(r.samples[0].accel.z - 9.80665) < 1e-9)
    }

    @Test func aFieldBeyondTheHeaderIsNamedOnce() throws {
        let path = try Self.phyphox(row: { $0 + ",5" })
        #expect { try Self.read(path) } throws: { e in
            let text = "\(e)"
            return text.contains(":2: column 6: expected 5 fields") && !text.contains("(column 6)")
        }
    }

    /// A copy of the iOS Sensor Logger fixture whose Gyroscope.csv starts `drop` rows later.
    static func iosFolder(droppingGyroscopeRows drop: Int) throws -> String {
        let dir = try TestPaths.makeScratchDirectory().appendingPathComponent("sensor-logger-ios")
        try FileManager.default.copyItem(atPath: DialectFixtures.path("walk/sensor-logger-ios"), toPath: dir.path)
        let gyro = dir.appendingPathComponent("Gyroscope.csv")
        let lines = try String(contentsOf: gyro, encoding: .utf8).split(separator: "\n")
        try ((lines.prefix(1) + lines.dropFirst(1 + drop)).joined(separator: "\n") + "\n").write(to: gyro, atomically: true, encoding: .utf8)
        return dir.path
    }

    @Test func aHeldValueCountsOnlyBeyondOneSamplePeriod() throws {
        // The fixture's gyroscope starts 3 ms after the accelerometer (20 ms period): no warning.
        #expect(try Self.read(Self.iosFolder(droppingGyroscopeRows: 0)).warnings.isEmpty)
        // 10 rows later (203 ms): the accelerometer samples 20 ms or more before it count.
        let late = try Self.read(Self.iosFolder(droppingGyroscopeRows: 10))
        let held = try #require(late.warnings.first { $0.kind == .heldValue })
        #expect(held.count == 10, "\(held)")
        #expect(held.file.hasSuffix("Gyroscope.csv"))
    }
}
