import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// The fixtures under `Tests/Fixtures/Dialects` (see its README): `walk/` is the first 4 s of
/// `Recordings/hapt-user01-walking.csv` written in every app's format by
/// `scripts/export-dialects.py ... --seconds 4 --defects`; `malformed/` one broken file per
/// dialect; `defects/` the same defective rows in two dialects.
enum DialectFixtures {
    static let root = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects").path

    static func path(_ relative: String) -> String { root + "/" + relative }

    /// The `--layout` text the export script wrote beside the raw buffer.
    static func layoutText() throws -> String {
        try String(contentsOfFile: path("walk/iio-accel.layout"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What the one entry point read from `relative`.
    struct Read {
        var samples: [Sample]
        var warnings: [RecordingWarning]
        var dialect: String
        var container: RecordingReader.Container?
        var sensors: SensorSet
    }

    /// Reads all of `relative` through ``RecordingReader`` (the dialect forced when `format` is given).
    static func read(_ relative: String, format: String? = nil, options: RecordingDialectOptions = RecordingDialectOptions(), bufferSize: Int = RecordingReader.defaultBufferSize) throws -> Read {
        let dialect = try format.map { try #require(RecordingDialects.named($0)) }
        let reader = try RecordingReader(input: .path(path(relative)), dialect: dialect,
                                         options: RecordingReadOptions(bufferSize: bufferSize, threads: 1, dialect: options))
        var samples: [Sample] = []
        var labels: [String?] = []
        while try reader.read(into: &samples, labels: &labels, maxSamples: 37) > 0 {}
        return Read(samples: samples, warnings: reader.warnings, dialect: reader.dialect.name, container: reader.container, sensors: reader.header.sensors)
    }

    /// The options each walk fixture needs (what the user would give on the command line).
    static func options(for relative: String) throws -> (format: String?, options: RecordingDialectOptions) {
        if relative.hasPrefix("walk/iio-accel.bin") {
            return ("iio", RecordingDialectOptions(scanLayout: try IIOBufferLayout(parsing: layoutText())))
        }
        if relative == "walk/columns.csv" {
            return ("columns", RecordingDialectOptions(columns: ColumnSelection(time: "t", accel: ["ax", "ay", "az"], gyro: ["gx", "gy", "gz"]),
                                                       timeUnit: .milliseconds, accelUnit: .standardGravity, gyroUnit: .degreesPerSecond))
        }
        return (nil, RecordingDialectOptions())
    }

    /// The samples the walk fixtures were written from: the first 4 s of the bundled walk.
    static func source() throws -> [Sample] {
        let all = try Recording.read(path: TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path).samples
        let t0 = try #require(all.first).timestamp
        return all.filter { $0.timestamp - t0 < 4_000_000_000 }
    }
}

/// One walk fixture: its path, the dialect that must read it, how it is packed, and the largest
/// differences from the source that its format allows (printed digits, integer raw units).
struct WalkFixture: Sendable, CustomStringConvertible {
    var path: String
    var dialect: String
    var container: RecordingReader.Container?
    /// m/s² (half a raw unit, or the printed precision).
    var accelTolerance: Double
    /// ns, on times relative to the first sample.
    var timeTolerance: Int64
    /// Whether the gyroscope is carried on the accelerometer's own rows (then compared too).
    var gyroOnSameRows: Bool = false
    /// The tolerated defects the file holds (the export's `--defects`).
    var warningKinds: [RecordingWarningKind] = []
    /// Whether a gyroscope comes in its own file, on its own clock (interpolated).
    var gyroOwnClock: Bool = false
    var description: String { path }
}

/// Half of Bangle.js's raw unit (8192 = 1 g) and of the IIO scale the export used.
private let bangleHalfUnit = 9.80665 / 8192 / 2
private let iioHalfUnit = 0.0023942 / 2

let walkFixtures: [WalkFixture] = [
    WalkFixture(path: "walk/phyphox-comma.csv", dialect: "phyphox", accelTolerance: 1e-8, timeTolerance: 10),
    WalkFixture(path: "walk/phyphox-tab-comma.csv", dialect: "phyphox", accelTolerance: 1e-8, timeTolerance: 10),
    WalkFixture(path: "walk/phyphox-semicolon-comma.csv", dialect: "phyphox", accelTolerance: 1e-8, timeTolerance: 10),
    WalkFixture(path: "walk/phyphox-gyro.csv", dialect: "phyphox", accelTolerance: 1e-8, timeTolerance: 10, gyroOnSameRows: true),
    WalkFixture(path: "walk/phyphox-comma.csv.gz", dialect: "phyphox", container: .gzip, accelTolerance: 1e-8, timeTolerance: 10),
    // Gyroscope.csv keeps its own clock (3 ms later): interpolated, held at the start, without a
    // held-value warning (3 ms is less than its 20 ms period: AlignedRows).
    WalkFixture(path: "walk/phyphox.zip", dialect: "phyphox", container: .zip, accelTolerance: 1e-8, timeTolerance: 10, gyroOwnClock: true),
    WalkFixture(path: "walk/sensor-logger-android.zip", dialect: "sensor-logger", container: .zip, accelTolerance: 1e-9, timeTolerance: 0,
                warningKinds: [.equalTimestamps, .duplicateRow], gyroOwnClock: true),
    // iOS: Accelerometer + Gravity, every axis negated back to Android's frame.
    WalkFixture(path: "walk/sensor-logger-ios", dialect: "sensor-logger", container: .folder, accelTolerance: 1e-9, timeTolerance: 0, gyroOwnClock: true),
    WalkFixture(path: "walk/bangle-accellog.csv", dialect: "bangle", accelTolerance: bangleHalfUnit, timeTolerance: 500_000, warningKinds: [.duplicateRow]),
    WalkFixture(path: "walk/bangle-accellog.csv.gz", dialect: "bangle", container: .gzip, accelTolerance: bangleHalfUnit, timeTolerance: 500_000, warningKinds: [.duplicateRow]),
    WalkFixture(path: "walk/iio-accel.bin", dialect: "iio", accelTolerance: iioHalfUnit, timeTolerance: 0),
    WalkFixture(path: "walk/iio-accel.bin.gz", dialect: "iio", container: .gzip, accelTolerance: iioHalfUnit, timeTolerance: 0),
    WalkFixture(path: "walk/columns.csv", dialect: "columns", accelTolerance: 1e-9, timeTolerance: 1, gyroOnSameRows: true),
]

@Suite struct DialectFixtureTests {
    /// Every app's format of the same 4 s carries the same samples, in SI units and the source's
    /// axes, on times relative to the first sample; its defects are counted by kind.
    @Test(arguments: walkFixtures)
    func everyDialectReadsTheSameWalk(_ fixture: WalkFixture) throws {
        let source = try DialectFixtures.source()
        let (format, options) = try DialectFixtures.options(for: fixture.path)
        // Recognised from the content: the dialect is not forced (only iio and columns need options).
        let read = try DialectFixtures.read(fixture.path, format: format == "columns" ? "columns" : nil, options: options)
        #expect(read.dialect == fixture.dialect && read.container == fixture.container)
        #expect(read.warnings.map(\.kind) == fixture.warningKinds, "\(read.warnings)")
        try #require(read.samples.count == source.count, "\(read.samples.count) samples, source \(source.count)")
        let t0 = source[0].timestamp, r0 = read.samples[0].timestamp
        var worstTime: Int64 = 0, worstAccel = 0.0, worstGyro = 0.0
        for (a, b) in zip(read.samples, source) {
            worstTime = max(worstTime, abs((a.timestamp - r0) - (b.timestamp - t0)))
            for k in 0..<3 {
                worstAccel = max(worstAccel, abs(a.accel[k] - b.accel[k]))
                worstGyro = max(worstGyro, abs(a.gyro[k] - b.gyro[k]))
            }
        }
        #expect(worstTime <= fixture.timeTolerance, "time off by \(worstTime) ns")
        #expect(worstAccel <= fixture.accelTolerance, "acceleration off by \(worstAccel) m/s²")
        if fixture.gyroOnSameRows { #expect(worstGyro <= 1e-8, "gyroscope off by \(worstGyro) rad/s") }
        #expect(read.sensors.contains(.gyro) == (fixture.gyroOnSameRows || fixture.gyroOwnClock))
    }

    /// The duplicate rows the export wrote into the Bangle log are the ones counted: each line
    /// equal to the line before it, by number.
    @Test func theBangleLogsDuplicatesAreCountedWithTheirLines() throws {
        let text = try String(contentsOfFile: DialectFixtures.path("walk/bangle-accellog.csv"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let duplicates = (1..<lines.count).filter { lines[$0] == lines[$0 - 1] && !lines[$0].isEmpty }.map { $0 + 1 }
        try #require(!duplicates.isEmpty)
        let warning = try #require(try DialectFixtures.read("walk/bangle-accellog.csv").warnings.first)
        #expect(warning.kind == .duplicateRow && warning.count == duplicates.count)
        #expect(warning.firstLines == Array(duplicates.prefix(RecordingWarning.maxLinesKept)))
    }

    /// A raw buffer read with the layout from a `devices --json` snapshot is the same as with the
    /// explicit `--layout` text.
    @Test func theDevicesSnapshotGivesTheSameLayout() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: DialectFixtures.path("walk/iio-devices.json"))))
        let fromSnapshot = try IIOBufferLayout(devicesJSON: bytes, file: "iio-devices.json", device: nil)
        #expect(fromSnapshot.channels == (try IIOBufferLayout(parsing: DialectFixtures.layoutText())).channels)
        let a = try DialectFixtures.read("walk/iio-accel.bin", format: "iio", options: RecordingDialectOptions(scanLayout: fromSnapshot))
        let b = try DialectFixtures.read("walk/iio-accel.bin", format: "iio", options: RecordingDialectOptions(scanLayout: try IIOBufferLayout(parsing: DialectFixtures.layoutText())))
        #expect(a.samples == b.samples && a.samples.count == 200)
    }

    /// Small blocks (lines and gzip members cut anywhere) read the same samples and warnings.
    @Test(arguments: ["walk/phyphox-tab-comma.csv", "walk/bangle-accellog.csv.gz", "walk/sensor-logger-android.zip", "walk/iio-accel.bin.gz", "walk/columns.csv"])
    func theBlockSizeChangesNothing(_ path: String) throws {
        let (format, options) = try DialectFixtures.options(for: path)
        let big = try DialectFixtures.read(path, format: format, options: options)
        let small = try DialectFixtures.read(path, format: format, options: options, bufferSize: 256)
        #expect(small.samples == big.samples && small.warnings == big.warnings)
    }

    /// The documented rule (docs/dialects.md, "Defects") on the same defective rows, whichever
    /// dialect carries them: the exact duplicate on line 4 dropped, the equal timestamps on
    /// lines 5-6 spread up to the next (40 and 50 ms), the 2 ms step back on line 8 dropped.
    @Test(arguments: ["defects/sensor-logger-android", "defects/plain.csv"])
    func realDefectsFollowOneRule(_ path: String) throws {
        let read = try DialectFixtures.read(path)
        let t0 = try #require(read.samples.first).timestamp
        #expect(read.samples.map { ($0.timestamp - t0) / 1_000_000 } == [0, 20, 40, 50, 60, 80])
        #expect(read.samples.map(\.accel.x) == [0.1, 0.2, 0.3, 0.4, 0.5, 0.7])
        #expect(read.warnings.map(\.kind) == [.duplicateRow, .equalTimestamps, .backwardStep])
        #expect(read.warnings.map(\.firstLines) == [[4], [6], [8]] && read.warnings.allSatisfy { $0.count == 1 })
        let file = DialectFixtures.path(path.hasSuffix(".csv") ? path : path + "/TotalAcceleration.csv")
        #expect(read.warnings.allSatisfy { $0.file == file }, "\(read.warnings.map(\.file))")
    }

    /// Forcing a dialect that does not fit is an error at the header, not a guess.
    @Test func aForcedDialectThatDoesNotFitIsRefusedAtLineOne() throws {
        #expect { try DialectFixtures.read("walk/bangle-accellog.csv", format: "phyphox") } throws: { e in
            (e as? RecordingError)?.line == 1
        }
    }
}

/// One malformed variant per dialect: the file, the options it is read with, and the error.
struct MalformedFixture: Sendable, CustomStringConvertible {
    var path: String
    var line: Int?
    var column: Int?
    var byteOffset: Int?
    var problem: String
    var description: String { path }
}

let malformedFixtures: [MalformedFixture] = [
    MalformedFixture(path: "malformed/phyphox-extra-field.csv", line: 4, column: 5, problem: "expected 4 fields"),
    MalformedFixture(path: "malformed/bangle-short-row.csv", line: 3, column: 4, problem: "expected 4 fields (Time (ms),X,Y,Z), found 3"),
    MalformedFixture(path: "malformed/sensor-logger-bad-number", line: 4, column: 4, problem: "bad number \"O.1\""),
    MalformedFixture(path: "malformed/sensor-logger-bad-number.zip", line: 4, column: 4, problem: "bad number \"O.1\""),
    MalformedFixture(path: "malformed/columns-bad-number.csv", line: 3, column: 4, problem: "bad number \"1.0x\""),
    // For a raw buffer the "line" is the scan number (1-based).
    MalformedFixture(path: "malformed/iio-clock-reset.bin", line: 5, column: 1, problem: "goes back 5 s"),
    MalformedFixture(path: "malformed/phyphox-truncated.csv.gz", line: nil, column: 4, problem: "the gzip data ends early"),
]

@Suite struct DialectMalformedFixtureTests {
    @Test(arguments: malformedFixtures)
    func eachDialectsMalformedFileIsALineNumberedError(_ bad: MalformedFixture) throws {
        var format: String?
        var options = RecordingDialectOptions()
        if bad.path.hasSuffix(".bin") {
            format = "iio"
            options.scanLayout = try IIOBufferLayout(parsing: DialectFixtures.layoutText())
        } else if bad.path.contains("columns") {
            format = "columns"
            options = RecordingDialectOptions(columns: ColumnSelection(time: "t", accel: ["ax", "ay", "az"]), timeUnit: .milliseconds, accelUnit: .standardGravity)
        }
        do {
            let read = try DialectFixtures.read(bad.path, format: format, options: options)
            Issue.record("\(bad.path): read \(read.samples.count) samples, expected an error")
        } catch let error as RecordingError {
            #expect(error.file.hasPrefix(DialectFixtures.path(bad.path)), "\(error)")
            if let line = bad.line { #expect(error.line == line, "\(error)") } else { #expect(error.line != nil, "\(error)") }
            #expect(error.column == bad.column, "\(error)")
            #expect(error.problem.contains(bad.problem), "\(error)")
            #expect(DiagnosticText.isPrintable(error.description.utf8))
        }
    }
}
