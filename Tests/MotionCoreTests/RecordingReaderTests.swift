import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

@Suite struct RecordingReaderTests {
    @Test func readsPlainCSVWithGyroAndLabels() throws {
        let path = try TestPaths.scratchFile("""
        time_s,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z,label
        0,9.00305,-1.10325,4.99867,-0.05498,-0.06964,-0.03085,
        0.02,8.93495,-0.91257,5.27107,-0.01252,0.01924,-0.03848,walking
        0.04,8.64892,-0.84446,5.03953,-0.02352,0.27642,0.00641,walking

        """)
        let r = try Recording.read(path: path)
        #expect(r.header.format == .plain)
        #expect(r.header.sensors == [.accel, .gyro])
        #expect(r.header.hasLabels)
        #expect(r.samples.map(\.timestamp) == [0, 20_000_000, 40_000_000])
        #expect(r.samples[1].accel == Vector3(8.93495, -0.91257, 5.27107))
        #expect(r.samples[2].gyro == Vector3(-0.02352, 0.27642, 0.00641))
        #expect(r.labels == [nil, "walking", "walking"])
        #expect(r.warnings.isEmpty)
    }

    @Test func readsPlainAccelOnly() throws {
        let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,1.94005,5.16179,10.162\n0.005035,1.51797,4.97639,9.89879\n")
        let r = try Recording.read(path: path)
        #expect(r.header.sensors == .accel)
        #expect(!r.header.hasLabels)
        #expect(r.labels == nil)
        #expect(r.samples.map(\.timestamp) == [0, 5_035_000])
        #expect(r.samples[0].gyro == .zero)
    }

    @Test func readsOwnFormatHeader() throws {
        let path = try TestPaths.scratchFile("""
        # motionbatch-recording: 1
        # device: lsm6dsl
        # actual_hz: 104.17
        # channel.accel_x: m/s^2 scale=0.000598
        timestamp_ns,accel_x,accel_y,accel_z
        1000,1,2,3
        2000,4,5,6

        """)
        let reader = try RecordingReader(path: path)
        #expect(reader.header.format == .motionbatch(version: 1))
        #expect(reader.header.metadata["device"] == "lsm6dsl")
        #expect(reader.header.declaredRate == 104.17)
        let chunk = try #require(try reader.next(maxSamples: 1))
        #expect(chunk.samples == [Sample(timestamp: 1000, accel: Vector3(1, 2, 3))])
        let chunk2 = try #require(try reader.next(maxSamples: 10))
        #expect(chunk2.samples.map(\.timestamp) == [2000])
        #expect(try reader.next() == nil)
    }
}
