import Foundation
import Testing
import MotionTestSupport
import MotionSystem
@testable import MotionCore

/// A fresh path in a new temporary directory (the file does not exist yet).
func temporaryPath(_ name: String = "out.csv") throws -> String {
    try TestPaths.makeScratchDirectory().appendingPathComponent(name).path
}

/// Deterministic awkward values: tiny, huge, negative zero, many digits, integers.
func awkwardSamples(count: Int, gyro: Bool, start: Int64 = 1_700_000_000_123_456_789) -> [Sample] {
    var rng = SplitMix64(seed: 42)
    let specials: [Double] = [0, -0.0, 1, -9.80665, 1e-300, 5e-324, 1e6, -999_999.999_999_999_9, 0.1, 1.0 / 3.0, 123456.789123456789]
    func value(_ i: Int) -> Double {
        i % 7 == 0 ? specials[i % specials.count] : (Double(bitPattern: rng.next() >> 12 | 0x4000_0000_0000_0000) - 3) * 7
    }
    var t = start
    return (0..<count).map { i in
        t += Int64(rng.next() % 20_000_000) + 1
        return Sample(timestamp: t, accel: Vector3(value(i), value(i + 1), value(i + 2)),
                      gyro: gyro ? Vector3(value(i + 3), value(i + 4), value(i + 5)) : .zero)
    }
}

@Suite struct RecordingWriterTests {
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func roundTripOwnFormat(gyro: Bool, labelled: Bool) throws {
        let path = try temporaryPath()
        let samples = awkwardSamples(count: 1000, gyro: gyro)
        let labels: [String?] = samples.indices.map { $0 % 3 == 0 ? nil : ($0 % 3 == 1 ? "walking" : "stand_to_sit") }
        let header = RecordingHeader(sensors: gyro ? [.accel, .gyro] : .accel, hasLabels: labelled,
                                     metadata: ["device": "lsm6dsl", "source": "iio:local:iio:device0", "actual_hz": "104.17", "note": "x: y"])
        let w = try RecordingWriter(path: path, header: header, fsync: .everyBatch)
        for start in stride(from: 0, to: samples.count, by: 137) {
            let batch = Array(samples[start..<min(start + 137, samples.count)])
            try w.append(SampleBatch(samples: batch, deliveredAt: batch.last!.timestamp),
                         labels: labelled ? Array(labels[start..<min(start + 137, samples.count)]) : nil)
        }
        try w.close()
        let r = try Recording.read(path: path)
        #expect(r.samples == samples)
        #expect(r.labels == (labelled ? labels : nil))
        #expect(r.header.format == .current)
        #expect(r.header.metadata["device"] == "lsm6dsl")
        #expect(r.header.metadata["note"] == "x: y")
        #expect(r.header.metadata["channel.accel_x"] == "m/s^2")
        #expect(r.header.declaredRate == 104.17)
        #expect(r.header == w.header)
        #expect(r.warnings.isEmpty)
        // Negative zero survives (Equatable treats it as 0, so check the sign bit).
        #expect(r.samples[0].accel.x.sign == samples[0].accel.x.sign)
    }

    @Test func roundTripPlainFormatKeepsNanoseconds() throws {
        let path = try temporaryPath()
        let samples = awkwardSamples(count: 300, gyro: true, start: -5_000_000_000)
        let w = try RecordingWriter(path: path, header: RecordingHeader(format: .plain, sensors: [.accel, .gyro]))
        try w.append(SampleBatch(samples: samples, deliveredAt: 0))
        try w.close()
        let r = try Recording.read(path: path)
        #expect(r.header.format == .plain)
        #expect(r.samples == samples)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z\n"))
    }

    @Test(arguments: [(Int64(0), "0"), (5_035_000, "0.005035"), (12_500_000_000, "12.5"), (-1, "-0.000000001"), (3_000_000_000, "3")])
    func secondsAreExactDecimals(ns: Int64, text: String) {
        var out: [UInt8] = []
        RecordingEncoder.appendSeconds(ns, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == text)
    }

    @Test func fsyncPolicies() throws {
        let samples = (0..<100).map { Sample(timestamp: Int64($0) * 100_000_000, accel: Vector3(1, 2, 3)) }  // 10 Hz, 10 s
        func run(_ policy: RecordingWriter.FsyncPolicy) throws -> (Int, Int64?) {
            let w = try RecordingWriter(path: try temporaryPath(), header: RecordingHeader(sensors: .accel), fsync: policy)
            for k in stride(from: 0, to: 100, by: 10) {  // ten batches of 1 s
                try w.append(SampleBatch(samples: Array(samples[k..<k + 10]), deliveredAt: samples[k + 9].timestamp))
            }
            let beforeClose = (w.fsyncCount, w.lastSyncedTimestamp)
            try w.close()
            #expect(w.lastSyncedTimestamp == samples.last!.timestamp)
            return beforeClose
        }
        // Header fsync + one per batch.
        #expect(try run(.everyBatch) == (11, 9_900_000_000))
        // Only the header until close.
        #expect(try run(.onClose) == (1, nil))
        // Every >= 3 s of sample time: batches end at 0.9, 1.9, ..., 9.9 s; syncs at 3.9 (>= 3 after start 0), 6.9, 9.9.
        #expect(try run(.interval(seconds: 3)) == (4, 9_900_000_000))
    }

    @Test func rejectsBadBatchesWithoutWriting() throws {
        let path = try temporaryPath()
        let w = try RecordingWriter(path: path, header: RecordingHeader(sensors: .accel, hasLabels: true))
        try w.append(SampleBatch(samples: [Sample(timestamp: 10, accel: Vector3(1, 2, 3))], deliveredAt: 10), labels: ["a"])
        #expect(throws: RecordingError.self) {
            try w.append(SampleBatch(samples: [Sample(timestamp: 10, accel: Vector3(1, 2, 3))], deliveredAt: 10))
        }
        #expect(throws: RecordingError.self) {
            try w.append(SampleBatch(samples: [Sample(timestamp: 20, accel: Vector3(.nan, 2, 3))], deliveredAt: 20))
        }
        #expect(throws: RecordingError.self) {
            try w.append(SampleBatch(samples: [Sample(timestamp: 20, accel: Vector3(1, 2, 3))], deliveredAt: 20), labels: ["a,b"])
        }
        try w.append(SampleBatch(samples: [Sample(timestamp: 20, accel: Vector3(4, 5, 6))], deliveredAt: 20), labels: [nil])
        try w.close()
        let r = try Recording.read(path: path)
        #expect(r.samples.map(\.timestamp) == [10, 20])
        #expect(r.labels == ["a", nil])
    }

    @Test func refusesToOverwriteUnlessAsked() throws {
        let path = try temporaryPath()
        try RecordingWriter(path: path, header: RecordingHeader(sensors: .accel)).close()
        #expect(throws: SystemError(.exists, call: "open", subject: path)) {
            try RecordingWriter(path: path, header: RecordingHeader(sensors: .accel))
        }
        try RecordingWriter(path: path, header: RecordingHeader(sensors: .accel), replaceExisting: true).close()
    }

    /// A power cut mid-write leaves a torn last line: the reader keeps every whole row and warns.
    @Test func tornTailIsDroppedWithWarning() throws {
        let path = try temporaryPath()
        let samples = awkwardSamples(count: 50, gyro: true)
        let w = try RecordingWriter(path: path, header: RecordingHeader(sensors: [.accel, .gyro]))
        try w.append(SampleBatch(samples: samples, deliveredAt: 0))
        try w.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.removeLast(9)  // cut inside the last row
        try bytes.write(to: URL(fileURLWithPath: path))
        let r = try Recording.read(path: path)
        #expect(r.samples == Array(samples.dropLast()))
        #expect(r.warnings.count == 1)
        let headerLines = 1 + r.header.metadata.count + 1
        #expect(r.warnings.first?.line == headerLines + 50)
        #expect(r.warnings.first?.description.contains("no newline") == true)
    }
}

/// The writer refuses what the reader would refuse, before anything is written: so every file it
/// writes reads back (issue 13: "what convert writes, replay reads").
@Suite struct RecordingWriterRefusalTests {
    static func encoder(_ metadata: [String: String] = [:], labels: Bool = false) throws(RecordingError) -> RecordingEncoder {
        try RecordingEncoder(header: RecordingHeader(sensors: .accel, hasLabels: labels, metadata: metadata), path: "out.csv")
    }

    @Test(arguments: [
        (InputLimits.timestampLimit + 1, 1.0, "is out of range (allowed ±4000000000000000000 ns"),
        (Int64.min, 1.0, "is out of range"),
        (0, 1_000_000.5, "cannot be written (values must be finite and within ±1000000)"),
        (0, -Double.infinity, "cannot be written"),
        (0, Double.nan, "cannot be written"),
    ])
    func rowsOutsideTheLimitsAreRefused(timestamp: Int64, value: Double, problem: String) throws {
        var e = try Self.encoder()
        var out: [UInt8] = []
        #expect { try e.encode([Sample(timestamp: timestamp, accel: Vector3(value, 0, 0))], labels: nil, into: &out) } throws: { error in
            (error as? RecordingError)?.problem.contains(problem) ?? false
        }
        #expect(out.isEmpty, "nothing encoded")
    }

    @Test(arguments: ["walk\u{0}ing", "\u{1B}[31mred", "a,b", "say \"hi\"", "line\nbreak", "cr\r"])
    func labelsThatCannotBeReadBackAreRefused(label: String) throws {
        var e = try Self.encoder(labels: true)
        var out: [UInt8] = []
        #expect(throws: RecordingError.self) { try e.encode([Sample(timestamp: 0, accel: .zero)], labels: [label], into: &out) }
    }

    @Test(arguments: [
        ["device": "a\u{0}b"], ["device": " padded"], ["bad key": "x"], ["k:ey": "x"], ["actual_hz": "1e308"],
        ["requested_hz": "fast"], ["channel.gyro_x": "rad/s"], ["channel.accel_x": "g"],
    ])
    func headerEntriesThatCannotBeReadBackAreRefused(metadata: [String: String]) {
        #expect(throws: RecordingError.self) { try Self.encoder(metadata) }
    }

    @Test func anAtomicOutputLeavesNothingWhenDiscarded() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try "keep".write(toFile: dir + "/out.csv", atomically: false, encoding: .utf8)
        let w = try RecordingWriter(output: OutputFile(path: dir + "/out.csv", mode: .atomic(replace: true)),
                                    header: RecordingHeader(sensors: .accel))
        try w.append(SampleBatch(samples: [Sample(timestamp: 1, accel: .zero)], deliveredAt: 1))
        #expect(w.fsyncCount == 0, "an atomic output is synced once, at close")
        w.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.csv"])
        #expect(try String(contentsOfFile: dir + "/out.csv", encoding: .utf8) == "keep")
    }
}
