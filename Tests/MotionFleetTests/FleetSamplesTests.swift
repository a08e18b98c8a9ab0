import Foundation
import MotionCore
import MotionTestSupport
import Testing
@testable import MotionFleet

@Suite("FleetSamples: the samples message")
struct FleetSamplesTests {
    /// Samples with awkward values (shortest round trip must be exact) and uneven timestamps.
    static func batch(_ n: Int, gyro: Bool, t0: Int64 = 1_700_000_000_123_456_789) -> SampleBatch {
        var samples: [Sample] = []
        for i in 0..<n {
            let d = Double(i)
            let t: Int64 = t0 + Int64(i) * 20_000_001 + Int64(i % 3)
            let accel = Vector3(0.1 + d / 3, -9.80665 * Double(i % 7), 1e-7 * d + 5e-324)
            let rate = gyro ? Vector3(d * 0.017453292519943295, -0.0, 123456.789) : Vector3.zero
            samples.append(Sample(timestamp: t, accel: accel, gyro: rate))
        }
        return SampleBatch(samples: samples, deliveredAt: samples.last!.timestamp)
    }

    @Test("round trip: the decoded samples are exactly the batch's", arguments: [false, true])
    func roundTrip(gyro: Bool) throws {
        let b = Self.batch(250, gyro: gyro)
        let sensors: SensorSet = gyro ? [.accel, .gyro] : .accel
        let m = try FleetSamples.message(b, sensors: sensors, board: "b1", session: "s1", sequence: 7)
        #expect(m.kind == .samples)
        #expect(!m.payload.contains("\n"), "one line (the outbox's record)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(m.payload.utf8)) as? [String: Any])
        #expect(o["seq"] as? Int == 7 && o["board"] as? String == "b1" && o["session"] as? String == "s1" && o["type"] as? String == "samples")
        #expect(o["count"] as? Int == 250)
        let back = try FleetSamples.decode(m.payload, name: "m")
        #expect(back.sensors == sensors)
        #expect(back.samples == b.samples)
        // The collector accepts it as a fleet message.
        guard case .success(let r) = ReceivedMessage.check(topic: "fleet/b1/samples", payload: Array(m.payload.utf8), prefix: "fleet") else {
            Issue.record("not a valid fleet message"); return
        }
        #expect(r.kind == .samples && r.sequence == 7)
    }

    @Test("the rows are the recording's own rows (integer ns, shortest round-trip values)")
    func rowsAreRecordingRows() throws {
        let b = SampleBatch(samples: [Sample(timestamp: 5, accel: Vector3(0.1, 2, -3.5))], deliveredAt: 5)
        let m = try FleetSamples.message(b, sensors: .accel, board: "b1", session: "s1", sequence: 1)
        #expect(m.payload.contains("\"columns\":\"timestamp_ns,accel_x,accel_y,accel_z\""))
        #expect(m.payload.contains("\"rows\":\"5,0.1,2.0,-3.5\\n\""), "\(m.payload)")
    }

    @Test("limits: an empty or too large batch, or samples a recording cannot hold, are refused with the row")
    func limits() throws {
        #expect(throws: FleetError.self) { try FleetSamples.message(SampleBatch(samples: [], deliveredAt: 0), sensors: .accel, board: "b", session: "s", sequence: 1) }
        let big = Self.batch(FleetSamples.maxSamples + 1, gyro: false, t0: 0)
        #expect(throws: FleetError.self) { try FleetSamples.message(big, sensors: .accel, board: "b", session: "s", sequence: 1) }
        _ = try FleetSamples.message(Self.batch(FleetSamples.maxSamples, gyro: false, t0: 0), sensors: .accel, board: "b", session: "s", sequence: 1)
        var b = Self.batch(3, gyro: false)
        b.samples[2].timestamp = b.samples[1].timestamp
        do {
            _ = try FleetSamples.message(b, sensors: .accel, board: "b", session: "s", sequence: 4)
            Issue.record("non-increasing timestamps encoded")
        } catch {
            #expect(error == .samples(message: "samples of batch 4", row: 3, column: 1, problem: "timestamp \(b.samples[2].timestamp) ns does not increase (previous \(b.samples[1].timestamp) ns)"))
        }
        b = Self.batch(2, gyro: false)
        b.samples[1].accel.y = .nan
        #expect(throws: FleetError.self) { try FleetSamples.message(b, sensors: .accel, board: "b", session: "s", sequence: 1) }
    }

    static func payload(rows: String, count: Int, columns: String = "timestamp_ns,accel_x,accel_y,accel_z", format: Int = 1) -> String {
        JSONValue.object([("schema", .number(1)), ("board", .string("b1")), ("type", .string("samples")), ("session", .string("s1")), ("seq", .number(3)),
                          ("samples_format", .number(format)), ("count", .number(count)), ("columns", .string(columns)), ("rows", .string(rows))]).serialized()
    }

    @Test("malformed payloads give a clear error naming the message, row and column",
          arguments: [
            (payload(rows: "1,0,0,9.8\n2,0,x,9.8\n", count: 2), "m, row 2, column 3: "),
            (payload(rows: "1,0,0,9.8\n2,0,0\n", count: 2), "m, row 2"),
            (payload(rows: "2,0,0,9.8\n1,0,0,9.8\n", count: 2), "m, row 2"),
            (payload(rows: "1,0,0,9.8\n", count: 2), "\"count\" is 2 but the rows hold 1 samples"),
            (payload(rows: "1,0,0,9.8\n", count: 1, format: 2), "unknown samples_format \"2\""),
            (payload(rows: "1,0,0,9.8\n", count: 1, columns: "t,x,y,z"), "unknown columns \"t,x,y,z\""),
            (payload(rows: "1,0,0,9.8", count: 1), "newline-terminated"),
            (payload(rows: "", count: 0), "1 to 100000"),
            ("{\"samples_format\":1}", "needs \"columns\", \"rows\" and \"count\""),
            ("{\"samples_format\":true,\"count\":1,\"columns\":\"timestamp_ns,accel_x,accel_y,accel_z\",\"rows\":\"1,0,0,9.8\\n\"}", "unknown samples_format \"a boolean\""),
            ("{\"samples_format\":1,\"count\":true,\"columns\":\"timestamp_ns,accel_x,accel_y,accel_z\",\"rows\":\"1,0,0,9.8\\n\"}", "needs \"columns\", \"rows\" and \"count\""),
            ("not json", "not a JSON object"),
          ])
    func malformed(payload: String, expected: String) {
        do {
            let s = try FleetSamples.decode(payload, name: "m")
            Issue.record("decoded \(s.samples.count) samples from a malformed payload")
        } catch {
            #expect(error.description.hasPrefix("m"), "\(error)")
            #expect(error.description.contains(expected), "\(error)")
        }
    }

    @Test("collected samples file names: part 1, continuation parts, nothing else")
    func fileNames() {
        #expect(CollectedSamples.fileName(session: "s1", part: 1) == "s1.samples.csv")
        #expect(CollectedSamples.fileName(session: "s1", part: 3) == "s1.samples-3.csv")
        #expect(CollectedSamples.parse(fileName: "s1.samples.csv")! == ("s1", 1))
        #expect(CollectedSamples.parse(fileName: "a-b.samples-12.csv")! == ("a-b", 12))
        for other in ["s1.ndjson", "s1.csv", "s1.samples-1.csv", "s1.samples-x.csv", "samples.csv"] {
            #expect(CollectedSamples.parse(fileName: other) == nil, "\(other)")
        }
    }

    @Test("the collector's recording: duplicates (by timestamp) are not written; after a restart it continues in a new part")
    func collectedRecording() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "fleet-samples").path
        let b = Self.batch(30, gyro: true)
        let first = FleetSamples(sensors: [.accel, .gyro], samples: Array(b.samples[0..<10]))
        let second = FleetSamples(sensors: [.accel, .gyro], samples: Array(b.samples[10..<30]))
        let c = CollectedSamples()
        #expect(try c.append(first, board: "b1", session: "s1", directory: dir + "/b1") == .written)
        #expect(try c.append(first, board: "b1", session: "s1", directory: dir + "/b1") == .duplicate)
        #expect(c.sync().isEmpty)
        c.closeAll()
        // A restarted collector: what the file holds is known; a redelivery is a duplicate.
        let again = CollectedSamples()
        try again.restore(board: "b1", path: dir + "/b1/s1.samples.csv", name: "s1.samples.csv")
        #expect(try again.append(first, board: "b1", session: "s1", directory: dir + "/b1") == .duplicate)
        #expect(try again.append(second, board: "b1", session: "s1", directory: dir + "/b1") == .written)
        again.closeAll()
        let part1 = try RecordingReader(path: dir + "/b1/s1.samples.csv")
        let part2 = try RecordingReader(path: dir + "/b1/s1.samples-2.csv")
        #expect(part2.header.metadata["continues"] == "s1.samples.csv")
        #expect(part2.header.metadata["board"] == "b1")
        var all: [Sample] = []
        for r in [part1, part2] { while let chunk = try r.next() { all += chunk.samples } }
        #expect(all == b.samples)
    }
}
