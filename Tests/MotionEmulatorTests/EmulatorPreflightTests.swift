#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import MotionEmulator

@Test func missingUHIDNodeNamesTheModulesToLoad() {
    do {
        try EmulatorPreflight.check(uhidPath: "/nonexistent/uhid", needsGyro: true)
        Issue.record("expected a problem")
    } catch {
        #expect(error.description.contains("does not exist"))
        for m in ["uhid", "hid-sensor-hub", "hid-sensor-accel-3d", "hid-sensor-gyro-3d"] {
            #expect(error.description.contains(m))
        }
    }
}

@Test func unloadedModulesAreListed() throws {
    var template = Array("/tmp/mb-preflight-XXXXXX".utf8CString)
    let dir = String(cString: mkdtemp(&template)!)
    defer { _ = system("rm -rf '\(dir)'") }
    let node = dir + "/uhid"
    close(open(node, O_CREAT | O_RDWR, 0o600))
    mkdir(dir + "/sys", 0o755)
    mkdir(dir + "/sys/uhid", 0o755)
    mkdir(dir + "/sys/hid_sensor_hub", 0o755)
    do {
        try EmulatorPreflight.check(uhidPath: node, needsGyro: true, sysModule: dir + "/sys", builtin: dir + "/none")
        Issue.record("expected a problem")
    } catch {
        #expect(error.description.contains("not loaded: hid-sensor-accel-3d, hid-sensor-gyro-3d"))
    }
    mkdir(dir + "/sys/hid_sensor_accel_3d", 0o755)
    // Accelerometer-only recordings do not need the gyro driver.
    try EmulatorPreflight.check(uhidPath: node, needsGyro: false, sysModule: dir + "/sys", builtin: dir + "/none")
}
