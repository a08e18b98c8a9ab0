import Foundation
import MotionSystem
import MotionTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// With SIGPIPE ignored (an `ip:` context sets it: ``BrokenPipeSignal``), a writer whose reader
/// has gone still ends the process by SIGPIPE, as `head`'s readers expect, and leaves no
/// temporary file behind. Each case runs in a child process (an exit test): it changes the
/// process's signal dispositions and ends by a signal.
@Suite("BrokenPipeSignal")
struct BrokenPipeSignalTests {
    @Test func ignoringTurnsTheSignalIntoEPIPE() async {
        await #expect(processExitsWith: .success) {
            guard !BrokenPipeSignal.isIgnored else { exit(3) }
            BrokenPipeSignal.ignore()
            BrokenPipeSignal.ignore()
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0, close(fds[0]) == 0 else { exit(4) }
            exit(BrokenPipeSignal.isIgnored && write(fds[1], "x", 1) == -1 && errno == EPIPE ? 0 : 5)
        }
    }

    @Test func terminateRemovesRegisteredFilesAndEndsBySIGPIPE() async throws {
        let temporary = try TestPaths.makeScratchDirectory().path + "/.out.tmp"
        await #expect(processExitsWith: .signal(SIGPIPE)) { [temporary = temporary as String] in
            BrokenPipeSignal.ignore()
            guard creat(temporary, 0o600) >= 0, TemporaryFileCleanup.register(temporary) != nil else { exit(3) }
            TemporaryFileCleanup.terminate(by: SIGPIPE)
        }
        #expect(access(temporary, F_OK) != 0, "the temporary file survived the SIGPIPE ending")
    }

    @Test func aStreamOutputWhoseReaderHasGoneEndsBySIGPIPE() async throws {
        let dir = try TestPaths.makeScratchDirectory().path
        await #expect(processExitsWith: .signal(SIGPIPE)) { [dir = dir as String] in
            BrokenPipeSignal.ignore()
            // An unfinished atomic output beside the stream: its temporary file must go too.
            guard let atomic = try? OutputFile(path: dir + "/report.json", mode: .atomic(replace: false)),
                  (try? atomic.write(Array("{".utf8))) != nil else { exit(3) }
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0, close(fds[0]) == 0,
                  let stream = try? OutputFile(path: "/dev/fd/\(fds[1])", mode: .atomic(replace: false)),
                  stream.kind == .stream else { exit(4) }
            _ = try? stream.write(Array("t,x,y,z\n".utf8))
            exit(5)  // the write above must not return
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
