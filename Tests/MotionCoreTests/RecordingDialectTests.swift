import Foundation
import Testing
import MotionSystem
import MotionTestSupport
@testable import MotionCore

/// A dialect written for the test: lines `t x y z` separated by spaces, no header. It shows what a
/// new dialect needs to plug into ``RecordingReader``: one ``RecordingDialect`` and one
/// ``RecordingRowReader``.
struct SpaceSeparatedDialect: RecordingDialect {
    var name: String { "spaces" }
    func recognizes(_ prefix: [UInt8]) -> Bool { prefix.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        var bytes = prefix
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0.baseAddress!, count: $0.count) }
            if n == 0 { break }
            bytes += chunk[..<n]
        }
        return try Rows(name: source.name, text: String(decoding: bytes, as: UTF8.self))
    }

    final class Rows: RecordingRowReader {
        let header = RecordingHeader(format: .plain, sensors: .accel)
        let warnings: [RecordingWarning] = []
        private(set) var lineNumber = 0
        var bytesRead: Int { 0 }
        private var pending: [Sample]
        private let failureLine: Int?
        private let name: String

        init(name: String, text: String) throws {
            self.name = name
            var samples: [Sample] = []
            var bad: Int?
            for (i, line) in text.split(separator: "\n").enumerated() {
                let f = line.split(separator: " ").compactMap { Double($0) }
                guard f.count == 4 else { bad = i + 1; break }
                samples.append(Sample(timestamp: Int64(f[0]), accel: Vector3(f[1], f[2], f[3])))
            }
            pending = samples
            failureLine = bad
        }

        func read(into samples: inout [Sample], labels: inout [String?], maxSamples: Int) throws -> Int {
            let n = min(maxSamples, pending.count)
            samples += pending.prefix(n)
            pending.removeFirst(n)
            lineNumber += n
            if n == 0, let failureLine {
                throw RecordingError(file: name, line: failureLine, column: 1, problem: "not four numbers")
            }
            return n
        }
    }
}

@Suite struct RecordingDialectTests {
    static let own = "# motionbatch-recording: 1\ntimestamp_ns,accel_x,accel_y,accel_z\n1000,1,2,3\n2000,4,5,6\n"
    static let plain = "time_s,accel_x,accel_y,accel_z\n0.000001,1,2,3\n0.000002,4,5,6\n"

    @Test(arguments: [(own, "motionbatch"), (plain, "plain"), ("\u{FEFF}" + plain, "plain")])
    func theFirstBytesChooseTheDialect(text: String, dialect: String) throws {
        let reader = try RecordingReader(input: .bytes(Array(text.utf8), name: "mem.csv"))
        #expect(reader.dialect.name == dialect)
        #expect(try Recording.read(path: TestPaths.scratchFile(text)).samples == (try reader.next()?.samples))
    }

    @Test func anUnrecognisedInputGetsTheFallbacksExplanation() {
        #expect { try RecordingReader(input: .bytes(Array("1000,1,2,3\n".utf8), name: "mem.csv")) } throws: { e in
            (e as? RecordingError).map { $0.line == 1 && $0.column == 1 && $0.problem.hasPrefix("missing header: expected '# motionbatch-recording: \(RecordingFormat.currentVersion)' or a plain CSV header") } ?? false
        }
    }

    @Test func aForcedDialectIsUsedEvenWhenAnotherWouldRecogniseTheInput() throws {
        #expect { try RecordingReader(input: .bytes(Array(Self.own.utf8), name: "mem.csv"), dialect: RecordingDialects.plainCSV) } throws: { e in
            (e as? RecordingError)?.problem.hasPrefix("missing header: expected a plain CSV header") ?? false
        }
        #expect(RecordingDialects.named("plain")?.name == "plain" && RecordingDialects.names == ["motionbatch", "plain", "phyphox", "sensor-logger", "bangle", "columns", "gt3x", "actilife", "cwa", "iio"])
    }

    @Test func aNewDialectPlugsIntoTheOneEntryPoint() throws {
        let input = RecordingInput.bytes(Array("10 1 2 3\n20 4 5 6\nbad\n".utf8), name: "walk.txt")
        let reader = try RecordingReader(input: input, dialect: SpaceSeparatedDialect())
        #expect(reader.dialect.name == "spaces" && reader.path == "walk.txt")
        #expect(try reader.next(maxSamples: 10)?.samples.map(\.timestamp) == [10, 20])
        let expected = RecordingError(file: "walk.txt", line: 3, column: 1, problem: "not four numbers")
        #expect(throws: expected) { try reader.next() }
        #expect(throws: expected, "the reader stays failed") { try reader.next() }
    }

    @Test func theInputsIdentityIsTheFilesEvenThroughADescriptor() throws {
        let path = try TestPaths.scratchFile(Self.own)
        let byPath = try RecordingReader(path: path)
        #expect(byPath.identity == (try FileIdentity.of(path: path)))
        // As for standard input redirected from the file: the open descriptor's identity.
        let source = RecordingFileSource(file: try FileDescriptor.openForReading(path), name: "standard input")
        let byDescriptor = try RecordingReader(input: .source(source))
        #expect(byDescriptor.identity == byPath.identity && byDescriptor.path == "standard input")
        #expect(try RecordingReader(input: .bytes(Array(Self.own.utf8), name: "m")).identity == nil)
    }

    /// A folder is read as an unzipped export (Sensor Logger); one without a recording is refused, naming what it holds.
    @Test func aFolderWithoutARecordingIsRefused() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        #expect(throws: RecordingError(file: dir, line: nil, problem: "holds no recording MotionBatch knows (a Sensor Logger or phyphox export; found no files)")) {
            try RecordingReader(path: dir)
        }
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: dir + "/readme.txt"))
        #expect { try RecordingReader(path: dir) } throws: { e in
            (e as? RecordingError)?.problem.hasSuffix("found \"readme.txt\")") ?? false
        }
    }

    /// Block sizes below the dialect sniff length (the prefix must fit the first block).
    @Test(arguments: [64, 100, 4095, 4096, 4097])
    func smallBlocksReadTheSame(bufferSize: Int) throws {
        var text = "# motionbatch-recording: 1\n# note: " + String(repeating: "x", count: 40) + "\ntimestamp_ns,accel_x,accel_y,accel_z\n"
        for i in 0..<500 { text += "\(i * 1000),\(i),2.5,-3\n" }
        let r = try RecordingReader(input: .bytes(Array(text.utf8), name: "m"), options: RecordingReadOptions(bufferSize: bufferSize, threads: 2))
        var samples: [Sample] = []
        var labels: [String?] = []
        while try r.read(into: &samples, labels: &labels, maxSamples: 33) > 0 {}
        #expect(samples.count == 500 && samples.last?.timestamp == 499_000)
    }
}
