import Foundation
import Testing
import MotionTestSupport
import MotionSystem
@testable import MotionCore

/// Event lines (format version 2): written where they are appended, read back in place among the
/// rows, whatever the block size, threads or chunk size; version-1 files keep reading.
@Suite struct RecordingEventTests {
    static let events: [RecordingEvent] = [
        RecordingEvent(.pause, at: 5_000),
        RecordingEvent(.resume, at: 9_000),
        RecordingEvent(.lost, at: 12_000, attributes: [.init("state", "lost")]),
        RecordingEvent(.reconnected, at: 20_000, attributes: [.init("lost_at", "12000"), .init("gap_ns", "8000")]),
    ]

    @Test(arguments: events)
    func lineRoundTrips(_ event: RecordingEvent) throws {
        let parsed = try RecordingEvent.parse(Substring(event.line)).get()
        #expect(parsed == event)
        #expect(event.line.hasPrefix("# event: \(event.kind.rawValue) \(event.time)"))
        #expect(try RecordingEvent.parse(Substring(event.line + "\r")).get() == event)
    }

    @Test func interruptionsArePausesAndLosses() {
        #expect(Self.events.map(\.isInterruption) == [true, false, true, false])
    }

    /// Writes `count` rows with an event before row `i` for every `i` in `eventRows` (repeats
    /// allowed; `count` means after the last row) and returns the path and the events as placed.
    static func write(count: Int, eventRows: [Int], gyro: Bool = true, fsync: RecordingWriter.FsyncPolicy = .everyBatch) throws -> (String, [Sample], [RecordingEvent]) {
        let path = try temporaryPath()
        let samples = awkwardSamples(count: count, gyro: gyro)
        let w = try RecordingWriter(path: path, header: RecordingHeader(sensors: gyro ? [.accel, .gyro] : .accel), fsync: fsync)
        var placed: [RecordingEvent] = []
        let rows = eventRows.sorted()
        var k = 0
        var i = 0
        while true {
            while k < rows.count, rows[k] == i {
                let kind = RecordingEvent.Kind.allCases[k % 4]
                let e = RecordingEvent(kind, at: Int64(1000 + k), attributes: k % 3 == 0 ? [.init("n", String(k))] : [], sampleIndex: i)
                try w.append(event: e)
                placed.append(e)
                k += 1
            }
            guard i < count else { break }
            // Rows in batches of varying size, cut at every event.
            let end = min(count, rows.first { $0 > i } ?? count, i + 1 + (i % 5))
            try w.append(SampleBatch(samples: Array(samples[i..<end]), deliveredAt: samples[end - 1].timestamp))
            i = end
        }
        try w.close()
        #expect(w.eventsWritten == placed.count)
        return (path, samples, placed)
    }

    @Test func eventsComeBackInPlace() throws {
        let (path, samples, placed) = try Self.write(count: 500, eventRows: [0, 0, 1, 17, 17, 250, 499, 500, 500])
        let r = try Recording.read(path: path)
        #expect(r.header.format == .motionbatch(version: 2))
        #expect(r.samples == samples)
        #expect(r.events == placed)
        #expect(r.warnings.isEmpty)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# motionbatch-recording: 2\n"))
        #expect(text.hasSuffix(placed[placed.count - 1].line + "\n"))
    }

    /// The events and rows do not depend on how the file is cut into blocks, on the threads, or
    /// on how many rows each call asks for; line numbers count the event lines.
    @Test(arguments: [(256, 1, 1), (400, 2, 7), (1000, 2, 4096), (1 << 20, 1, 100), (1 << 20, 2, Int.max), (4096, 2, Int.max)])
    func sameEventsWhateverTheBlocksAndChunks(bufferSize: Int, threads: Int, chunk: Int) throws {
        var g = SplitMix64(seed: 7)
        let count = 3000
        let rows = (0..<60).map { _ in Int(g.next() % UInt64(count + 1)) }
        let (path, samples, placed) = try Self.write(count: count, eventRows: rows)
        let reader = try RecordingReader(path: path, bufferSize: bufferSize, threads: threads)
        var got: [Sample] = []
        var events: [RecordingEvent] = []
        if chunk == Int.max {
            while let c = try reader.next(maxSamples: .max) {
                #expect(c.firstSampleIndex == got.count)
                for e in c.events { #expect(e.sampleIndex >= c.firstSampleIndex && e.sampleIndex <= c.firstSampleIndex + c.samples.count) }
                got += c.samples
                events += c.events
            }
        } else {
            var labels: [String?] = []
            while try reader.read(into: &got, labels: &labels, events: &events, maxSamples: chunk) > 0 {}
        }
        #expect(got == samples)
        #expect(events == placed)
        #expect(reader.lineNumber == reader.header.metadata.count + 2 + count + placed.count)  // header, rows, events
        #expect(reader.samplesDelivered == count)
    }

    @Test func eventsAfterTheLastRowComeInAChunkWithoutRows() throws {
        let (path, _, placed) = try Self.write(count: 10, eventRows: [10, 10])
        let reader = try RecordingReader(path: path)
        // Copied chunks of 5 rows: the events after the last row come alone, after them.
        for first in [0, 5] {
            let c = try #require(try reader.next(maxSamples: 5))
            #expect(c.samples.count == 5 && c.events.isEmpty && c.firstSampleIndex == first)
        }
        let rest = try #require(try reader.next(maxSamples: 5))
        #expect(rest.samples.isEmpty && rest.events == placed && rest.firstSampleIndex == 10)
        #expect(try reader.next(maxSamples: 5) == nil)
        // A whole block handed over carries them with its rows.
        let whole = try #require(try RecordingReader(path: path).next(maxSamples: 100))
        #expect(whole.samples.count == 10 && whole.events == placed)
    }

    @Test func aFileOfEventsOnlyReads() throws {
        let (path, _, placed) = try Self.write(count: 0, eventRows: [0, 0, 0])
        let r = try Recording.read(path: path)
        #expect(r.samples.isEmpty && r.events == placed)
    }

    @Test func writerRefusesEventsItCannotWrite() throws {
        let plain = try RecordingWriter(path: try temporaryPath(), header: RecordingHeader(format: .plain, sensors: .accel))
        #expect(throws: RecordingError.self) { try plain.append(event: RecordingEvent(.pause, at: 1)) }
        let path = try temporaryPath()
        let own = try RecordingWriter(path: path, header: RecordingHeader(sensors: .accel))
        let before = own.bytesWritten
        for bad in [[RecordingEvent.Attribute("state", "a b")], [.init("State", "x")], [.init("k", "")], [.init("k", "\u{1b}")], [.init("a", "1"), .init("a", "2")]] {
            #expect(throws: RecordingError.self) { try own.append(event: RecordingEvent(.lost, at: 1, attributes: bad)) }
        }
        #expect(own.bytesWritten == before && own.eventsWritten == 0)
        try own.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == before)
    }

    @Test func writerCountsBytesAndSyncsEventsPerPolicy() throws {
        let (path, _, _) = try Self.write(count: 20, eventRows: [5, 10], fsync: .onClose)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        let w = try RecordingWriter(path: try temporaryPath(), header: RecordingHeader(sensors: .accel), fsync: .everyBatch)
        let syncs = w.fsyncCount
        try w.append(event: RecordingEvent(.pause, at: 1))
        #expect(w.fsyncCount == syncs + 1)
        try w.close()
        #expect(size ?? 0 > 0)
        let lazy = try RecordingWriter(path: try temporaryPath(), header: RecordingHeader(sensors: .accel), fsync: .onClose)
        try lazy.append(event: RecordingEvent(.pause, at: 1))
        #expect(lazy.fsyncCount == 1)  // the header's
        try lazy.close()
        #expect(lazy.fsyncCount == 2)  // the event is synced at close
    }

    @Test func versionOneFilesStillRead() throws {
        let path = try TestPaths.scratchFile("# motionbatch-recording: 1\ntimestamp_ns,accel_x,accel_y,accel_z\n1,1,2,3\n2,1,2,3\n")
        let r = try Recording.read(path: path)
        #expect(r.header.format == .motionbatch(version: 1) && r.samples.count == 2 && r.events.isEmpty)
    }
}
