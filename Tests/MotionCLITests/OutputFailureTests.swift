import Foundation
import Testing
import MotionTestSupport

/// Issue 25, case 8: a command whose standard output cannot be written (`/dev/full`: ENOSPC)
/// exits 1 with a message, whatever the command; a closed pipe keeps the SIGPIPE convention.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
struct OutputFailureTests {
    static let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path
    /// Stands for a new empty folder (`collect report` of a folder nothing was collected into).
    static let emptyFolder = "<empty folder>"

    @Test(arguments: [
        ["steps", walk], ["steps", walk, "--json"], ["activity", walk], ["replay", walk, "--json"],
        ["wakes", "--rates", "25", "--latencies", "1"], ["--help"], ["--version"], ["help", "steps"],
        ["convert", walk, "-"], ["collect", "report", emptyFolder], ["collect", "report", emptyFolder, "--json"],
    ])
    func writingToAFullDeviceFails(arguments: [String]) throws {
        let folder = try TestPaths.makeScratchDirectory().path
        let quoted = ([TestProcess.motionbatch] + arguments.map { $0 == Self.emptyFolder ? folder : $0 }).map { "'\($0)'" }.joined(separator: " ")
        let r = try TestProcess.run([quoted + " > /dev/full"], shell: true)
        #expect(r.status == 1, "\(arguments): status \(String(describing: r.status)), \(r.err)")
        #expect(r.err.contains("No space left on device"), "\(arguments): \(r.err)")
    }

    /// A pipe whose reader is gone before the command starts, SIGPIPE ignored (as Python leaves
    /// it for its children with `restore_signals=False`): the first write gets EPIPE, and the
    /// command ends by SIGPIPE (Python's return code -13), without an error message.
    @Test func aClosedPipeEndsTheCommandBySIGPIPE() throws {
        let script = """
        import os, subprocess, sys
        r, w = os.pipe()
        os.close(r)
        p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE, restore_signals=False)
        print(p.returncode, p.stderr.decode())
        """
        let r = try TestProcess.run(["/usr/bin/python3", "-c", script, TestProcess.motionbatch, "steps", Self.walk])
        #expect(r.out.hasPrefix("-13 "), "\(r.out) \(r.err)")
        #expect(!r.out.contains("Error"), "\(r.out)")
    }
}
