#if canImport(Glibc)
import Glibc
#endif
import MotionSystem

/// Checks a device's ``AccessState`` fresh from the file system (local backend), never from a cache:
/// `/sys/bus/iio` present, the device directory present, `/dev/iio:deviceN` readable and writable,
/// the buffer's `enable` writable, and the character device not held by another reader.
public enum AccessProbe {
    /// The sysfs root of IIO devices.
    public static let sysfsRoot = "/sys/bus/iio/devices"

    /// Whether the kernel has an IIO subsystem.
    public static var hasIIOSubsystem: Bool { access("/sys/bus/iio", F_OK) == 0 }

    /// The state of device `id` (`iio:deviceN`) whose name should be `name`.
    /// - Parameter holdingBuffer: true while this process has the buffer open (skips the busy test).
    public static func check(id: String, name: String, holdingBuffer: Bool) -> AccessState {
        guard hasIIOSubsystem else { return .noIIOSubsystem }
        let dir = "\(sysfsRoot)/\(id)"
        guard access(dir, F_OK) == 0, readName(dir) == name else {
            return holdingBuffer ? .lost(device: name) : .deviceAbsent(device: name)
        }
        let node = "/dev/\(id)"
        if access(node, F_OK) != 0 { return holdingBuffer ? .lost(device: name) : .deviceAbsent(device: name) }
        if access(node, R_OK | W_OK) != 0 { return .permissionDenied(device: name, path: node) }
        for file in ["buffer/enable", "buffer0/enable"] where access("\(dir)/\(file)", F_OK) == 0 {
            if access("\(dir)/\(file)", W_OK) != 0 { return .permissionDenied(device: name, path: "\(dir)/\(file)") }
            break
        }
        if !holdingBuffer {
            do throws(SystemError) {
                try FileDescriptor.open(node, flags: O_RDONLY | O_NONBLOCK).close()
            } catch {
                return AccessState.from(errno: error.errno, device: name, path: node, duringCapture: false) ?? .deviceAbsent(device: name)
            }
        }
        return .available
    }

    /// The state for a device looked up by name or id (`accel_3d`, `iio:device0`).
    public static func check(device nameOrID: String) -> AccessState {
        guard hasIIOSubsystem else { return .noIIOSubsystem }
        guard let (id, name) = find(nameOrID) else { return .deviceAbsent(device: nameOrID) }
        return check(id: id, name: name, holdingBuffer: false)
    }

    /// Finds `(id, name)` of the device whose id or name is `nameOrID`.
    static func find(_ nameOrID: String) -> (String, String)? {
        guard let d = opendir(sysfsRoot) else { return nil }
        defer { closedir(d) }
        while let e = readdir(d) {
            let entry = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entry.hasPrefix("iio:device") else { continue }
            let name = readName("\(sysfsRoot)/\(entry)") ?? entry
            if entry == nameOrID || name == nameOrID { return (entry, name) }
        }
        return nil
    }

    static func readName(_ dir: String) -> String? {
        guard let f = fopen("\(dir)/name", "r") else { return nil }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 256)
        guard fgets(&line, Int32(line.count), f) != nil else { return nil }
        return String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingWhitespace()
    }
}
