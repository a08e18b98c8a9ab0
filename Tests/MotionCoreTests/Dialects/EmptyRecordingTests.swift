import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// An empty recording (a header, no rows) in every kind of input that can be one, through the
/// command line (docs/bad-input.md, "Plausibility"): `steps` exits 1 with the `empty-stream`
/// message naming `--allow-empty`, and 0 with it (a warning). The binary formats are written by
/// this target's writers (``CWAWriter``, ``GT3XLogWriter``), hence the test lives here.
struct EmptyRecordingTests {
    /// One empty input: its path and the options that read it.
    struct Input: CustomStringConvertible, Sendable {
        var kind: String
        /// The dialect that reads it.
        var dialect: String
        var path: String
        var options: [String] = []
        var description: String { kind }
    }

    static let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path
    static let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/walk").path

    /// MotionBatch's own format: the bundled walk's header block and column line.
    static func ownFormat() throws -> Input {
        let lines = try String(contentsOfFile: walk, encoding: .utf8).split(separator: "\n")
        let header = lines.prefix { $0.hasPrefix("#") } + [lines.first { !$0.hasPrefix("#") }!]
        return Input(kind: "motionbatch", dialect: "motionbatch", path: try TestPaths.scratchFile(header.joined(separator: "\n") + "\n", name: "empty.csv"))
    }

    /// A Sensor Logger export folder whose CSV files keep only their header line.
    static func sensorLoggerFolder() throws -> Input {
        let dir = try TestPaths.makeScratchDirectory().appendingPathComponent("sensor-logger-ios")
        try FileManager.default.copyItem(atPath: fixtures + "/sensor-logger-ios", toPath: dir.path)
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name != "Metadata.csv" {
            let url = dir.appendingPathComponent(name)
            let first = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")[0]
            try Data((first + "\n").utf8).write(to: url)
        }
        return Input(kind: "sensor-logger folder", dialect: "sensor-logger", path: dir.path)
    }

    /// An empty raw IIO buffer, read with the fixture's `--layout`.
    static func rawBuffer() throws -> Input {
        let layout = try String(contentsOfFile: fixtures + "/iio-accel.layout", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return Input(kind: "iio --layout", dialect: "iio", path: try TestPaths.scratchFile("", name: "empty.bin"), options: ["--layout", layout])
    }

    /// An Axivity CWA file with its header block and no data block.
    static func cwa() throws -> Input {
        var w = CWAWriter()
        w.header()
        return Input(kind: "cwa", dialect: "cwa", path: try w.write(name: "empty.cwa"))
    }

    /// A .gt3x folder (info.txt, log.bin) whose log holds a PARAMETERS record and no samples.
    static func gt3x() throws -> Input {
        var w = GT3XLogWriter()
        w.parameters(second: 0, accelScale: 256, idleSleepMode: false)
        return Input(kind: "gt3x", dialect: "gt3x", path: try w.folder(info: GT3XLogWriter.linkInfo(rate: 30)))
    }

    /// An ActiLife raw CSV export with its header and no rows.
    static func actiLife() throws -> Input {
        Input(kind: "actilife", dialect: "actilife", path: try ActiLifeCSVDialectTests.export(rows: []))
    }

    static func inputs() throws -> [Input] {
        [try ownFormat(), try sensorLoggerFolder(), try rawBuffer(), try cwa(), try gt3x(), try actiLife()]
    }

    @Test func anEmptyRecordingOfEveryKindFailsUnlessAllowed() throws {
        for input in try Self.inputs() {
            // Read as the dialect it is, with no samples: the plausibility rule's one finding.
            var options = RecordingReadOptions(plausibility: PlausibilityRule(minimumRateHz: 12.5))
            if let layout = input.options.last, input.options.first == "--layout" {
                options.dialect.scanLayout = try IIOBufferLayout(parsing: layout)
            }
            let reader = try RecordingReader(input: .path(input.path), dialect: options.dialect.impliedDialect.flatMap(RecordingDialects.named), options: options)
            let recording = try Recording.read(reader)
            #expect(recording.samples.isEmpty && reader.dialect.name == input.dialect, "\(input): \(reader.dialect.name)")
            #expect(recording.warnings.map(\.kind) == [.emptyStream], "\(input): \(recording.warnings)")

            let failed = try TestProcess.run([TestProcess.motionbatch, "steps", input.path] + input.options)
            #expect(failed.status == 1, "\(input): \(failed.out) \(failed.err)")
            #expect(failed.out.isEmpty, "\(input)")
            #expect(failed.err.contains("the recording holds no samples: nothing to analyse (--allow-empty accepts an empty recording)"), "\(input): \(failed.err)")
            let allowed = try TestProcess.run([TestProcess.motionbatch, "steps", input.path, "--allow-empty"] + input.options)
            #expect(allowed.status == 0, "\(input): \(allowed.err)")
            #expect(allowed.out.contains(": 0 steps in 0.0 s"), "\(input): \(allowed.out)")
            #expect(allowed.err.contains("warning: the recording holds no samples"), "\(input): \(allowed.err)")
        }
    }
}
