import Foundation
import MotionSystem
import MotionTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// ``AtomicRewriter``: the checkpoint's writer, replacing one file again and again.
@Suite("AtomicRewriter")
struct AtomicRewriterTests {
    @Test func replacesTheWholeFileEachTimeKeepingItsPermissionsAndNoTemporary() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let path = dir + "/r.checkpoint.json"
        let rewriter = try AtomicRewriter(path: path)
        #expect(TemporaryFileCleanup.registeredPaths.contains(rewriter.temporaryPath))
        try rewriter.replace(with: Array("first\n".utf8))
        #expect(try entries(dir) == ["r.checkpoint.json"])
        #expect(try contents(path) == "first\n")
        chmod(path, 0o640)
        for k in 0..<5 { try rewriter.replace(with: Array("replacement \(k)\n".utf8)) }
        #expect(try contents(path) == "replacement 4\n")
        #expect(try entries(dir) == ["r.checkpoint.json"])
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o640)
    }

    /// A temporary left by a killed writer under the same name: that replacement goes through
    /// ``AtomicFile`` with a fresh name; the stale file is not touched.
    @Test func aTakenTemporaryNameFallsBackToAFreshOne() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let rewriter = try AtomicRewriter(path: dir + "/c.json")
        try "stale".write(toFile: rewriter.temporaryPath, atomically: false, encoding: .utf8)
        try rewriter.replace(with: Array("new".utf8))
        #expect(try contents(dir + "/c.json") == "new")
        #expect(try contents(rewriter.temporaryPath) == "stale")
        #expect(try entries(dir).count == 2)
    }

    @Test func aDirectoryInTheWayIsAnErrorAndLeavesNoTemporary() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let rewriter = try AtomicRewriter(path: dir + "/d")
        try FileManager.default.createDirectory(atPath: dir + "/d", withIntermediateDirectories: false)
        #expect(throws: SystemError(.isDirectory, call: "open", subject: dir + "/d")) { try rewriter.replace(with: Array("x".utf8)) }
        #expect(try entries(dir) == ["d"])
    }
}
