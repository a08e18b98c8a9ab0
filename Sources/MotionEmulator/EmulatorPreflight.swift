#if canImport(Glibc)
import Glibc
#endif

/// Checks, before creating a device, that /dev/uhid can be used and that the kernel modules that
/// turn it into IIO devices are present, so that failures come with a remedy instead of a
/// silently unclaimed HID device.
public enum EmulatorPreflight {
    /// The kernel modules the emulator relies on (module names as `modprobe` takes them).
    public static let requiredModules = ["uhid", "hid-sensor-hub", "hid-sensor-accel-3d"]
    /// Needed only when the recording has a gyroscope.
    public static let gyroModule = "hid-sensor-gyro-3d"

    /// A problem found by ``check(uhidPath:needsGyro:)``, with the message to show.
    public struct Problem: Error, CustomStringConvertible, Equatable, Sendable {
        public var description: String
    }

    /// Checks the uhid node and the modules (`/sys/module/NAME`, or listed in `modules.builtin`).
    /// - Throws: ``Problem`` naming what is missing and how to fix it.
    public static func check(uhidPath: String = "/dev/uhid", needsGyro: Bool,
                             sysModule: String = "/sys/module", builtin: String? = nil) throws(Problem) {
        var modules = requiredModules
        if needsGyro { modules.append(gyroModule) }
        let load = "sudo modprobe -a " + (requiredModules + [gyroModule]).joined(separator: " ")
        if access(uhidPath, F_OK) != 0 {
            throw Problem(description: "\(uhidPath) does not exist: the uhid module is not loaded. Load the modules with: \(load)")
        }
        if access(uhidPath, R_OK | W_OK) != 0 {
            let e = errno
            throw Problem(description: "\(uhidPath) is not readable and writable by this user (\(String(cString: strerror(e)))): run as root (sudo motionbatch emulate ...) or grant access with a udev rule (KERNEL==\"uhid\", GROUP=\"...\", MODE=\"0660\")")
        }
        let builtinList = builtin ?? "/lib/modules/\(kernelRelease())/modules.builtin"
        let builtinText = readText(builtinList) ?? ""
        let missing = modules.filter { m in
            let sysName = String(m.map { $0 == "-" ? "_" : $0 })
            if access("\(sysModule)/\(sysName)", F_OK) == 0 { return false }
            return !builtinText.contains("/\(m).ko") && !builtinText.contains("/\(sysName).ko")
        }
        if !missing.isEmpty {
            throw Problem(description: "kernel module(s) not loaded: \(missing.joined(separator: ", ")). Without them the kernel does not turn the virtual hub into IIO devices. Load them with: \(load)")
        }
    }

    static func kernelRelease() -> String {
        var u = utsname()
        uname(&u)
        return withUnsafeBytes(of: &u.release) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }

    static func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
