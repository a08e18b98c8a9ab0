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

    /// `lines` (a header and rows) with `edit` applied to the column line (`columnLine` its index)
    /// and each row after it, `\n` or `\r\n` after each, as a scratch file.
    static func edited(_ lines: [String], columnLine: Int, header: (String) -> String, row: (String) -> String, crlf: Bool = false) throws -> String {
        let out = lines.enumerated().map { i, l in i < columnLine ? l : i == columnLine ? header(l) : row(l) }
        return try TestPaths.scratchFile(out.joined(separator: crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n"), name: "trailing.csv")
    }

    /// Where one trailing separator is added: to the header, to the rows, to both.
    static let trailingSeparators: [(header: Bool, rows: Bool)] = [(true, false), (false, true), (true, true)]

    /// `line` with a trailing separator when `add`.
    static func separator(_ add: Bool) -> (String) -> String { { add ? $0 + "," : $0 } }

    @Test(arguments: [false, true])
    func ownFormatTakesOneTrailingSeparator(crlf: Bool) throws {
        // The bundled walk: gyroscope and labels (the fast parser's label path).
        let path = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path
        let reference = try Recording.read(path: path)
        #expect(reference.samples.count > 1000 && reference.labels != nil)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let columnLine = try #require(lines.firstIndex { !$0.hasPrefix("#") })
        for (header, rows) in Self.trailingSeparators {
            let r = try Recording.read(path: Self.edited(lines, columnLine: columnLine, header: Self.separator(header), row: Self.separator(rows), crlf: crlf))
            #expect(r.header.format == reference.header.format)
            #expect(r.header.columns == reference.header.columns)
            #expect(r.samples == reference.samples)
            #expect(r.labels == reference.labels)
            #expect(r.warnings.isEmpty, "\(r.warnings)")
        }
        // An empty label and then the separator: the label stays empty.
        let unlabelled = try Recording.read(path: Self.edited(lines, columnLine: columnLine, header: { $0 }, row: { $0.replacingOccurrences(of: ",walking", with: ",") + "," }))
        #expect(unlabelled.samples == reference.samples)
        #expect(unlabelled.labels?.allSatisfy { $0 == nil } == true)
    }

    /// A plain CSV of `n` rows (accelerometer only, or with gyroscope and labels).
    static func plainLines(gyro: Bool, rows n: Int = 300) -> [String] {
        let header = "time_s,accel_x,accel_y,accel_z" + (gyro ? ",gyro_x,gyro_y,gyro_z,label" : "")
        return [header] + (0..<n).map { i in
            let t = Double(i) * 0.02
            let a = "\(t),\(0.5 * sin(t * 9)),\(0.25 * cos(t * 9)),\(9.81 + sin(t * 18))"
            return gyro ? a + ",\(0.01 * Double(i % 7)),-0.02,0.03,\(i < n / 2 ? "walking" : "standing")" : a
        }
    }

    @Test(arguments: [false, true])
    func plainCSVTakesOneTrailingSeparator(gyro: Bool) throws {
        let lines = Self.plainLines(gyro: gyro)
        let reference = try Recording.read(path: Self.edited(lines, columnLine: 0, header: { $0 }, row: { $0 }))
        #expect(reference.samples.count == 300)
        for (header, rows) in Self.trailingSeparators {
            for crlf in [false, true] {
                let path = try Self.edited(lines, columnLine: 0, header: Self.separator(header), row: Self.separator(rows), crlf: crlf)
                // Recognised as plain CSV from its first bytes (a folder keeps it), read alike.
                let reader = try RecordingReader(input: .path(path))
                #expect(reader.dialect.name == "plain")
                let r = try Recording.read(reader)
                #expect(r.header.columns == reference.header.columns)
                #expect(r.samples == reference.samples)
                #expect(r.labels == reference.labels)
                #expect(r.warnings.isEmpty, "\(r.warnings)")
            }
        }
    }

    @Test func onlyOneTrailingSeparatorAndBadFieldsStillNamed() throws {
        let lines = Self.plainLines(gyro: true, rows: 20)
        // Two separators: a column with no name, and a field beyond the header.
        #expect { try Recording.read(path: Self.edited(lines, columnLine: 0, header: { $0 + ",," }, row: { $0 })) } throws: { e in
            "\(e)".contains(":1: column 9: unknown column \"\" (expected end of line)")
        }
        #expect { try Recording.read(path: Self.edited(lines, columnLine: 0, header: { $0 }, row: { $0 + ",," })) } throws: { e in
            "\(e)".contains(":2: column 9: expected 8 columns")
        }
        // A bad value in a row with a trailing separator is named by its column.
        #expect { try Recording.read(path: Self.edited(lines, columnLine: 0, header: { $0 }, row: { $0.replacingOccurrences(of: ",-0.02,", with: ",x,") + "," })) } throws: { e in
            "\(e)".contains(":2: column 6 (gyro_y): bad number \"x\"")
        }
        // The separator ends the row: a value after it is a field too many, not a label.
        #expect { try Recording.read(path: Self.edited(lines, columnLine: 0, header: { $0 }, row: { $0 + ",x" })) } throws: { e in
            "\(e)".contains(":2: column 9: expected 8 columns")
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
