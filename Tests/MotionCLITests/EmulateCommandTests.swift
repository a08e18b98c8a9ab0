#if canImport(Glibc)
import Glibc
#endif
import Testing
import MotionTestSupport
@testable import MotionCLI


@Test func emulatePrintsTheDescriptorWithoutTouchingUHID() throws {
    let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,0,0,9.8\n0.01,0.1,0,9.8\n0.02,0.2,0,9.8\n")
    defer { unlink(path) }
    let r = runCLI(["emulate", path, "--print-descriptor", "--timestamps", "arrival"])
    #expect(r.code == 0)
    #expect(r.out.hasPrefix("05 20 09 01 a1 01 85 01 09 73 a1 00"))  // sensor collection, accel physical
    #expect(!r.out.contains("0a 29 05"))  // no hub timestamp usage in arrival mode
    #expect(!r.out.contains("09 76"))  // no gyro collection without gyro columns
}

@Test(arguments: [
    (["--timestamps", "wall"], "expected 'hub' or 'arrival'"),
    (["--overflow", "drop-middle"], "expected 'drop-oldest' or 'drop-newest'"),
    (["--fifo-capacity", "0"], "'--fifo-capacity'"),
])
func emulateRejectsBadOptionsWithUsageErrors(extra: [String], message: String) {
    let r = runCLI(["emulate", "/nonexistent.csv"] + extra)
    #expect(r.code == 64)
    #expect(r.err.contains(message))
}

@Test func emulateNamesAMissingRecordingAndAMissingUHIDNode() throws {
    let missing = runCLI(["emulate", "/nonexistent/rec.csv"])
    #expect(missing.code == 1 && missing.err.contains("/nonexistent/rec.csv"))
    let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,0,0,9.8\n0.01,0.1,0,9.8\n")
    defer { unlink(path) }
    let r = runCLI(["emulate", path, "--uhid", "/nonexistent/uhid"])
    #expect(r.code == 1)
    #expect(r.err.contains("/nonexistent/uhid does not exist") && r.err.contains("modprobe -a uhid hid-sensor-hub hid-sensor-accel-3d hid-sensor-gyro-3d"))
}

@Test func emulateRejectsATooShortRecording() throws {
    let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,0,0,9.8\n")
    defer { unlink(path) }
    let r = runCLI(["emulate", path, "--print-descriptor"])
    #expect(r.code == 1 && r.err.contains(path) && r.err.contains("at least 2 samples"))
}
