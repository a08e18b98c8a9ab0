import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The built `motionbatch` executable run as its own process (a board or the collector), its
/// output in files, every wait bounded, stopped by the test.
final class MotionBatchProcess: @unchecked Sendable {
    /// `motionbatch` beside the test executable (`swift test` builds it), nil when absent.
    static let executable: String? = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("motionbatch").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }()

    let process = Process()
    let stdoutPath: String
    let stderrPath: String

    /// Starts `motionbatch args` in `directory`.
    init(_ args: [String], in directory: URL, name: String) throws {
        guard let exe = Self.executable else { throw BrokerError("the motionbatch executable was not built") }
        stdoutPath = directory.appendingPathComponent("\(name).out").path
        stderrPath = directory.appendingPathComponent("\(name).err").path
        FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: exe)
        process.arguments = args
        process.currentDirectoryURL = directory
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
    }

    /// Waits at most `seconds`; kills the process (and records a failure by returning nil) after.
    @discardableResult
    func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    /// Sends `signal`.
    func signal(_ s: Int32) { if process.isRunning { kill(process.processIdentifier, s) } }

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }
}

/// A short synthetic recording (MotionBatch plain CSV) of a 2 Hz walk at 50 Hz for `seconds`,
/// so that a realtime board finishes within the test's bounds.
func syntheticWalk(seconds: Int, in dir: URL, name: String = "walk.csv") throws -> String {
    var s = "time_s,accel_x,accel_y,accel_z\n"
    for i in 0..<(seconds * 50) {
        let t = Double(i) / 50
        let z = 9.81 + 3.0 * sin(2 * .pi * 2.0 * t) + 0.4 * sin(2 * .pi * 4.0 * t + 0.3)
        s += "\(t),\(0.5 * sin(2 * .pi * t)),0.3,\(z)\n"
    }
    let path = dir.appendingPathComponent(name).path
    try s.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The lines of an NDJSON text as objects.
func ndjsonObjects(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
}

/// Waits (polling) until `condition` holds, at most `seconds`.
func waitUntil(seconds: Double, _ condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition(), Date() < deadline { usleep(50_000) }
}
