import Foundation
import Testing
import MotionTestSupport
import MotionSystem
@testable import MotionCore

/// The block reader (splitter, row parser, worker threads) must give the same samples, labels,
/// warnings, byte counts and errors as a one-block, one-thread read, wherever the blocks are cut.
@Suite struct RecordingBlockPipelineTests {
    /// `count` rows of a labelled accel+gyro recording as text (timestamps 1000 ns apart).
    static func rows(_ count: Int, from first: Int = 0) -> String {
        var text = ""
        for i in first..<(first + count) {
            let v = Double(i) * 0.000598550
            text += "\(1000 * (i + 1)),\(v),\(-v),9.81,0.5,\(Double(i % 7) * 0.1),-0.000152716,\(i % 5 == 0 ? "" : "walk\(i % 3)")\n"
        }
        return text
    }
    static let head = "# motionbatch-recording: 1\n# device: t\ntimestamp_ns,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z,label\n"  // rows from line 4

    struct Outcome: Equatable {
        var samples: [Sample] = []
        var labels: [String?] = []
        var warnings: [RecordingWarning] = []
        var bytes = 0
        var lineNumber = 0
        var error: RecordingError?
    }

    static func readAll(_ path: String, bufferSize: Int, threads: Int, chunk: Int) throws -> Outcome {
        var o = Outcome()
        let reader = try RecordingReader(path: path, bufferSize: bufferSize, threads: threads)
        do {
            while try reader.read(into: &o.samples, labels: &o.labels, maxSamples: chunk) > 0 {}
        } catch let e as RecordingError {
            o.error = e
            #expect(throws: e) { try reader.read(into: &o.samples, labels: &o.labels, maxSamples: chunk) }  // stays failed
        }
        o.warnings = reader.warnings
        o.bytes = reader.bytesRead
        o.lineNumber = reader.lineNumber
        return o
    }

    @Test(arguments: [(300, 1, 1000), (301, 2, 7), (512, 2, 1 << 16), (1000, 2, 64), (4096, 2, 333), (1 << 20, 2, 1)])
    func sameResultWhateverTheBlocksAndThreads(bufferSize: Int, threads: Int, chunk: Int) throws {
        let text = Self.head + Self.rows(2000)
        let path = try TestPaths.scratchFile(text)
        let reference = try Self.readAll(path, bufferSize: 1 << 20, threads: 1, chunk: 1 << 16)
        #expect(reference.samples.count == 2000 && reference.error == nil)
        #expect(reference.bytes == text.utf8.count)
        #expect(reference.lineNumber == 2003)
        let o = try Self.readAll(path, bufferSize: bufferSize, threads: threads, chunk: chunk)
        Self.expectSame(o, reference, "\(bufferSize)/\(threads)/\(chunk)")
    }

    /// The size hint that starts the workers before the first block: the rest of a regular file
    /// from the current offset, nothing for a device.
    @Test func bytesRemainingIsTheRestOfARegularFile() throws {
        let text = Self.head + Self.rows(50)
        let path = try TestPaths.scratchFile(text)
        let file = try FileDescriptor.openForReading(path)
        #expect(file.bytesRemaining() == text.utf8.count)
        var buffer = [UInt8](repeating: 0, count: 100)
        let n = try buffer.withUnsafeMutableBytes { try file.read(into: $0.baseAddress!, count: 100) }
        #expect(n == 100)
        #expect(file.bytesRemaining() == text.utf8.count - 100)
        #expect(try FileDescriptor.openForReading("/dev/null").bytesRemaining() == nil)
    }

    /// Compares two outcomes field by field (short messages).
    static func expectSame(_ o: Outcome, _ r: Outcome, _ what: String) {
        #expect(o.samples.count == r.samples.count, "\(what)")
        #expect(o.samples == r.samples, "\(what): samples differ")
        #expect(o.labels == r.labels, "\(what): labels differ")
        #expect(o.warnings == r.warnings, "\(what)")
        #expect(o.bytes == r.bytes, "\(what)")
        #expect(o.lineNumber == r.lineNumber, "\(what)")
        #expect(o.error == r.error, "\(what)")
    }

    /// A bad row anywhere (first row of a block, last row, middle) gives the same line and the same
    /// delivered rows with any block size and thread count.
    @Test(arguments: [
        ("bad number", "NUMBER", 4, "bad number \"abc\""),
        ("backwards", "BACK", 1, "goes backwards"),
        ("duplicate", "DUP", 1, "duplicate timestamp"),
        ("empty line", "EMPTY", 1, "empty line"),
        ("columns", "COLS", 9, "expected 8 columns"),
    ] as [(String, String, Int?, String)])
    func errorsInLaterBlocksAreExact(name: String, kind: String, column: Int?, problem: String) throws {
        let good = 1500
        var lines = Self.rows(good + 10).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        switch kind {
        case "BACK": lines[good] = "\(1000 * good - 500)," + lines[good].split(separator: ",", maxSplits: 1)[1]
        case "DUP": lines[good] = "\(1000 * good)," + lines[good].split(separator: ",", maxSplits: 1)[1]
        case "EMPTY": lines[good] = ""
        case "COLS": lines[good] = lines[good] + ",extra"
        default: lines[good] = lines[good].replacingOccurrences(of: ",9.81,", with: ",abc,")
        }
        let path = try TestPaths.scratchFile(Self.head + lines.joined(separator: "\n"))
        let expectedLine = 3 + good + 1
        var reference: Outcome?
        for bufferSize in [250, 256, 300, 777, 4096, 1 << 20] {
            for threads in [1, 2] {
                let o = try Self.readAll(path, bufferSize: bufferSize, threads: threads, chunk: 100)
                let e = try #require(o.error, "\(name) \(bufferSize)/\(threads): no error")
                #expect(e.line == expectedLine, "\(name) \(bufferSize)/\(threads): \(e)")
                #expect(e.column == column, "\(e)")
                #expect(e.problem.contains(problem), "\(e)")
                #expect(o.samples.count == good)
                #expect(o.lineNumber == expectedLine)
                if let reference { Self.expectSame(o, reference, "\(name) \(bufferSize)/\(threads)") } else { reference = o }
            }
        }
    }

    /// Timestamps are checked across block edges: every cut position of the backwards row.
    @Test func orderIsCheckedAcrossBlockEdges() throws {
        let text = Self.head + Self.rows(30) + "29500,1,2,3,4,5,6,x\n" + Self.rows(5, from: 40)
        let path = try TestPaths.scratchFile(text)
        for bufferSize in 100...220 {
            for threads in [1, 2] {
                let o = try Self.readAll(path, bufferSize: bufferSize, threads: threads, chunk: 4)
                #expect(o.error == RecordingError(file: path, line: 34, column: 1, columnName: "timestamp_ns",
                                                  problem: "timestamp 29500 ns goes backwards (line 33 has 30000 ns)"),
                        "\(bufferSize)/\(threads)")
                #expect(o.samples.count == 30)
            }
        }
    }

    @Test(arguments: [1, 2])
    func tornTailAfterManyBlocks(threads: Int) throws {
        let text = Self.head + Self.rows(3000) + "3000001,1,2"
        let path = try TestPaths.scratchFile(text)
        let o = try Self.readAll(path, bufferSize: 1000, threads: threads, chunk: 512)
        #expect(o.error == nil)
        #expect(o.samples.count == 3000)
        #expect(o.warnings == [RecordingWarning(file: path, line: 3004, message: "last line has no newline (torn write, e.g. power loss); dropped its 11 bytes")])
        #expect(o.bytes == text.utf8.count)
    }

    /// Abandoning a threaded reader part-way stops its workers (no hang, no crash), many times over.
    @Test func abandonedReadersShutDown() throws {
        let path = try TestPaths.scratchFile(Self.head + Self.rows(5000))
        for i in 0..<50 {
            let reader = try RecordingReader(path: path, bufferSize: 512, threads: 2)
            var s: [Sample] = []
            var l: [String?] = []
            _ = try reader.read(into: &s, labels: &l, maxSamples: 10 * i + 1)
            #expect(s.count == 10 * i + 1)
        }
    }
}
