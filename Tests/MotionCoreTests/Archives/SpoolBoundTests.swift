import Foundation
@testable import MotionCore
import MotionSystem
import MotionTestSupport
import Testing

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
        let limited = try TestProcess.run(["ulimit -f 1024; cat '\(zip)' | TMPDIR='\(spool)' '\(exe)' steps -"], shell: true)
        #expect(limited.signal == nil && limited.status == 1, "\(limited)")
        #expect(limited.err.contains("standard input") && limited.err.contains("file-size limit"), "\(limited.err)")
        let missing = try TestProcess.run(["cat '\(zip)' | TMPDIR='\(dir)/none' '\(exe)' steps -"], shell: true)
        #expect(missing.status == 1 && missing.err.contains("standard input") && missing.err.contains("does not exist"), "\(missing.err)")
        let bounded = try TestProcess.run(["{ printf 'PK\\003\\004'; cat /dev/zero; } | TMPDIR='\(spool)' '\(exe)' steps --max-spool 1M -"], shell: true)
        #expect(bounded.status == 1 && bounded.err.contains("--max-spool"), "\(bounded.err)")
        #expect(try Directory.entries(of: spool).isEmpty)
    }
}
