import Foundation
@testable import MotionCore
import MotionSystem
import MotionTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The temporary copy of an input on a pipe (``SpooledFile``): bounded by `--max-spool` and the
/// free space, its failures named with the input, nothing left on disk.
@Suite struct SpoolBoundTests {
    /// An endless zip on a pipe (a local header, then bytes for ever) stops at `maxSpool`, naming
    /// the input and the option, and leaves nothing in the spool's folder.
    @Test func anEndlessZipOnAPipeStopsAtMaxSpool() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let source = EndlessSource(head: [0x50, 0x4B, 3, 4])
        var options = RecordingReadOptions()
        options.limits.maxSpool = 1 << 20
        let text = ArchiveFixtures.message { _ = try SpooledFile.copy(source, prefix: [], limits: options.limits, directory: dir) }
        #expect(text?.hasPrefix("standard input") == true)
        #expect(text?.contains("'--max-spool' (1048576 bytes") == true)
        #expect(source.delivered <= (1 << 20) + (1 << 16))
        #expect(try Directory.entries(of: dir).isEmpty)
    }

    /// The same through the reader (the zip path of ``RecordingReader``).
    @Test func theReaderPassesTheBoundToTheSpool() throws {
        var options = RecordingReadOptions()
        options.limits.maxSpool = 256 << 10
        let text = ArchiveFixtures.message { _ = try RecordingReader(input: .source(EndlessSource(head: [0x50, 0x4B, 3, 4])), options: options) }
        #expect(text?.contains("'--max-spool' (262144 bytes") == true)
    }

    /// A spool folder that is missing, not a folder, or refuses files: an error naming the input
    /// and the folder, not the bare system call.
    @Test(arguments: [("/nonexistent-motionbatch-tmp", "does not exist"), ("/sys", "cannot be created in /sys"), ("FILE", "is not a folder")])
    func anUnusableSpoolFolderIsNamed(folder: String, expected: String) throws {
        let path = folder == "FILE" ? try TestPaths.scratchFile("x") : folder
        let text = ArchiveFixtures.message { _ = try SpooledFile.copy(RecordingMemorySource([1, 2, 3], name: "standard input"), prefix: [], directory: path) }
        #expect(text?.hasPrefix("standard input") == true, "\(text ?? "no error")")
        #expect(text?.contains(expected) == true, "\(text ?? "no error")")
    }

    /// The spool never takes the last 256 MiB of a file system (5% of a small one).
    @Test func theSpoolLeavesAMarginOfFreeSpace() {
        #expect(ArchiveLimits.room(free: 10 << 30, total: 100 << 30) == (10 << 30) - (256 << 20))
        #expect(ArchiveLimits.room(free: 200 << 20, total: 1 << 30) == (200 << 20) - (1 << 30) / 20)
        #expect(ArchiveLimits.room(free: 100 << 20, total: 100 << 30) == 0)
    }

    /// Within the bound the copy is complete and reads back.
    @Test func aSpoolWithinTheBoundReadsBack() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let copy = try SpooledFile.copy(RecordingMemorySource(Array(bytes[10...]), name: "s"), prefix: Array(bytes[..<10]),
                                        limits: ArchiveLimits(maxSpool: 100_000))
        #expect(copy.size == bytes.count)
        #expect(try copy.bytes(at: 0, count: bytes.count) == bytes)
        #expect(ArchiveFixtures.message { _ = try SpooledFile.copy(RecordingMemorySource(bytes, name: "s"), prefix: [], limits: ArchiveLimits(maxSpool: 99_999)) } != nil)
    }

    /// In a child process under a file-size limit (`ulimit -f`), a zip on a pipe larger than the
    /// limit is an error saying so (SIGXFSZ ignored while spooling), not a silent death by signal;
    /// and a missing TMPDIR names the input. Nothing is left in TMPDIR.
    @Test func fileSizeLimitAndMissingTmpdirInAChild() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let spool = dir + "/spool"
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        // A valid zip of 2 MiB (a stored member of varied bytes).
        let data = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let zip = dir + "/big.zip"
        try Data(ArchiveFixtures.zip([.init("Accelerometer.csv", data, method: 0)])).write(to: URL(fileURLWithPath: zip))
        let exe = TestProcess.motionbatch
        // dash counts ulimit -f in 512-byte blocks, bash in 1024: both well under 2 MiB.
        let limited = try Self.shell("ulimit -f 1024; cat '\(zip)' | TMPDIR='\(spool)' '\(exe)' steps -", in: dir)
        #expect(limited.status == 1, "\(limited)")
        #expect(limited.err.contains("standard input") && limited.err.contains("file-size limit"), "\(limited.err)")
        let missing = try Self.shell("cat '\(zip)' | TMPDIR='\(dir)/none' '\(exe)' steps -", in: dir)
        #expect(missing.status == 1 && missing.err.contains("standard input") && missing.err.contains("does not exist"), "\(missing.err)")
        let bounded = try Self.shell("{ printf 'PK\\003\\004'; cat /dev/zero; } | TMPDIR='\(spool)' '\(exe)' steps --max-spool 1M -", in: dir)
        #expect(bounded.status == 1 && bounded.err.contains("--max-spool"), "\(bounded.err)")
        // The options' values are checked: a duration is no size, a ratio is at least 1.
        let badSize = try Self.shell("'\(exe)' steps --max-spool 10s '\(zip)'", in: dir)
        #expect(badSize.status == 64 && badSize.err.contains("'--max-spool': expected a size"), "\(badSize.err)")
        let badRatio = try Self.shell("'\(exe)' steps --max-ratio 0 '\(zip)'", in: dir)
        #expect(badRatio.status == 64 && badRatio.err.contains("'--max-ratio'"), "\(badRatio.err)")
        #expect(try Directory.entries(of: spool).isEmpty)
    }

    /// Runs `command` with `/bin/sh -c` in a child whose SIGXFSZ has its default action and is not
    /// blocked (what a user's shell gives; the test runner's own threads may block or ignore it,
    /// and a child inherits both): its exit status (128 + N after signal N) and standard error.
    static func shell(_ command: String, in dir: String) throws -> (status: Int32, err: String) {
        let errPath = dir + "/stderr-\(UInt64.random(in: 0...UInt64.max))"
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGXFSZ)
        sigaddset(&defaults, SIGPIPE)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ["/bin/sh", "-c", "exec 2>'\(errPath)' </dev/null; " + command]
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", nil, &attributes, &cArgs, environ)
        guard rc == 0 else { throw SystemError(Errno(rc), call: "posix_spawn") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), err)
    }
}
