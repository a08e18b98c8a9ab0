import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

@Suite struct RecordingStreamingTests {
    /// Lines split across buffer refills at every possible offset parse the same as with a large buffer.
    @Test(arguments: Array(200...290))
    func linesSplitAcrossBuffers(bufferSize: Int) throws {
        let path = try Self.fixture()
        let expected = try Recording.read(path: path)
        // The buffer must be shorter than the file but longer than any line, so lines straddle refills.
        let lineLengths = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(\.utf8.count)
        #expect(lineLengths.max()! < 200 && lineLengths.reduce(0, +) > 3 * 290)
        let reader = try RecordingReader(path: path, bufferSize: bufferSize)
        var samples: [Sample] = []
        var labels: [String?] = []
        while try reader.read(into: &samples, labels: &labels, maxSamples: 5) > 0 {}
        #expect(samples == expected.samples)
        #expect(labels == expected.labels)
        #expect(reader.warnings.isEmpty)
        #expect(reader.bytesRead == (try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int))
    }

    @Test func chunksConcatenateToTheWholeFile() throws {
        let path = try Self.fixture()
        let expected = try Recording.read(path: path)
        let reader = try RecordingReader(path: path)
        var all: [Sample] = []
        var labels: [String?] = []
        var sizes: [Int] = []
        while let chunk = try reader.next(maxSamples: 7) {
            sizes.append(chunk.samples.count)
            all += chunk.samples
            labels += try #require(chunk.labels)
        }
        #expect(all == expected.samples)
        #expect(labels == expected.labels)
        #expect(sizes.dropLast().allSatisfy { $0 == 7 })
        #expect(try reader.next() == nil)
    }

    /// Whole parsed blocks (handed over without copying) and copied chunks, mixed, concatenate
    /// to the file; line numbers and bytes read stay exact, whatever the block size and threads.
    @Test(arguments: [(300, 1), (300, 2), (700, 2), (1 << 20, 1), (1 << 20, 2)])
    func wholeBlocksAndCopiedChunksMix(blockSize: Int, threads: Int) throws {
        let path = try Self.fixture()
        let expected = try Recording.read(path: path)
        let reader = try RecordingReader(path: path, bufferSize: blockSize, threads: threads)
        var all: [Sample] = []
        var labels: [String?] = []
        var calls = 0
        while let chunk = try reader.next(maxSamples: calls % 3 == 1 ? 2 : .max) {
            calls += 1
            all += chunk.samples
            labels += try #require(chunk.labels)
            #expect(reader.lineNumber == all.count + (try headerLines(path)))
        }
        #expect(all == expected.samples)
        #expect(labels == expected.labels)
        #expect(blockSize > 1000 || calls > 2)
        #expect(reader.bytesRead == (try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int))
    }

    /// A bad row in a later block is reported with its file line by the whole-block path too.
    @Test func wholeBlockPathReportsTheBadLine() throws {
        var text = "time_s,accel_x,accel_y,accel_z\n"
        for i in 0..<60 { text += "\(i).5,1,2,3\n" }
        text += "61,1,x,3\n62,1,2,3\n"
        let path = try TestPaths.scratchFile(text)
        let reader = try RecordingReader(path: path, bufferSize: 128, threads: 2)
        var rows = 0
        let error = #expect(throws: RecordingError.self) {
            while let chunk = try reader.next(maxSamples: .max) { rows += chunk.samples.count }
        }
        #expect(error?.line == 62)
        #expect(error?.column == 3)
        #expect(rows <= 60)
        #expect(throws: RecordingError.self) { try reader.next(maxSamples: .max) }
    }

    private func headerLines(_ path: String) throws -> Int {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").prefix { $0.hasPrefix("#") || $0.hasPrefix("timestamp") }.count
    }

    @Test func lineLongerThanBufferIsAnError() throws {
        let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,1,2," + String(repeating: "3", count: 200) + "\n")
        let reader = try RecordingReader(path: path, bufferSize: 100)
        #expect(throws: RecordingError(file: path, line: 2, column: 101, problem: "line is longer than 100 bytes")) {
            try reader.next()
        }
    }

    /// A labelled gyro recording of 40 rows (~2.5 kB) written by ``RecordingWriter``.
    static func fixture() throws -> String {
        let path = try temporaryPath()
        let samples = awkwardSamples(count: 40, gyro: true)
        let w = try RecordingWriter(path: path, header: RecordingHeader(sensors: [.accel, .gyro], hasLabels: true, metadata: ["device": "fixture"]))
        try w.append(SampleBatch(samples: samples, deliveredAt: 0), labels: samples.indices.map { $0 % 4 == 0 ? nil : "l\($0 % 3)" })
        try w.close()
        return path
    }
}
