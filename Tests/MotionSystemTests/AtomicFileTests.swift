import Foundation
import MotionSystem
import MotionTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The entries of `dir` (names), sorted.
func entries(_ dir: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
}

func contents(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

@Suite("AtomicFile")
struct AtomicFileTests {
    @Test func commitPutsTheWholeFileInPlaceAndLeavesNoTemporary() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let file = try AtomicFile(path: dir + "/out.csv", existing: .refuse)
        try file.write(Array("hello ".utf8))
        // Until the commit the final name does not exist; the temporary sits beside it.
        #expect(try entries(dir) == [URL(fileURLWithPath: file.temporaryPath).lastPathComponent])
        #expect(TemporaryFileCleanup.registeredPaths.contains(file.temporaryPath))
        try file.write(Array("world".utf8))
        try file.commit()
        #expect(try entries(dir) == ["out.csv"])
        #expect(try contents(dir + "/out.csv") == "hello world")
        #expect(!TemporaryFileCleanup.registeredPaths.contains(file.temporaryPath))
    }

    @Test func refusesAnExistingFileAndLeavesItAlone() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try "keep".write(toFile: dir + "/out.csv", atomically: false, encoding: .utf8)
        #expect(throws: SystemError(.exists, call: "open", subject: dir + "/out.csv")) {
            try AtomicFile(path: dir + "/out.csv", existing: .refuse)
        }
        #expect(try entries(dir) == ["out.csv"])
        #expect(try contents(dir + "/out.csv") == "keep")
    }

    @Test func replacesAnExistingFileKeepingItsPermissions() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try "old".write(toFile: dir + "/out.csv", atomically: false, encoding: .utf8)
        #expect(chmod(dir + "/out.csv", 0o600) == 0)
        let before = try #require(try FileIdentity.of(path: dir + "/out.csv"))
        let file = try AtomicFile(path: dir + "/out.csv", existing: .replace)
        #expect(file.replacedIdentity == before)
        try file.write(Array("new".utf8))
        #expect(try contents(dir + "/out.csv") == "old", "untouched until the commit")
        try file.commit()
        #expect(try contents(dir + "/out.csv") == "new")
        var st = stat()
        #expect(stat(dir + "/out.csv", &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(try FileIdentity.of(path: dir + "/out.csv") != before, "a new inode, renamed over the old")
    }

    @Test func discardOrReleaseRemovesTheTemporaryAndKeepsThePrevious() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try "keep".write(toFile: dir + "/out.csv", atomically: false, encoding: .utf8)
        let file = try AtomicFile(path: dir + "/out.csv", existing: .replace)
        try file.write(Array("partial".utf8))
        file.discard()
        #expect(try entries(dir) == ["out.csv"])
        #expect(try contents(dir + "/out.csv") == "keep")
        do {
            let released = try AtomicFile(path: dir + "/new.csv", existing: .refuse)
            try released.write(Array("partial".utf8))
        }
        #expect(try entries(dir) == ["out.csv"], "released without commit: nothing left")
    }

    @Test func aSymlinkedOutputKeepsItsLink() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try "old".write(toFile: dir + "/real.csv", atomically: false, encoding: .utf8)
        #expect(symlink("real.csv", dir + "/link.csv") == 0)
        try AtomicFile.write(Array("new".utf8), to: dir + "/link.csv", existing: .replace)
        var st = stat()
        #expect(lstat(dir + "/link.csv", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK, "still a link")
        #expect(try contents(dir + "/real.csv") == "new")
        // A dangling link: the file it names is created.
        #expect(symlink("sub-target.csv", dir + "/dangling.csv") == 0)
        try AtomicFile.write(Array("x".utf8), to: dir + "/dangling.csv", existing: .refuse)
        #expect(try contents(dir + "/sub-target.csv") == "x")
    }

    @Test func twoWritersThatMustNotReplaceCannotBothSucceed() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let a = try AtomicFile(path: dir + "/out.csv", existing: .refuse)
        let b = try AtomicFile(path: dir + "/out.csv", existing: .refuse)
        try a.write(Array("a".utf8))
        try b.write(Array("b".utf8))
        try a.commit()
        #expect(throws: SystemError(.exists, call: "link", subject: dir + "/out.csv")) { try b.commit() }
        #expect(try entries(dir) == ["out.csv"])
        #expect(try contents(dir + "/out.csv") == "a")
    }

    /// Two writers replacing the same file, their writes interleaved: the file is one of the two
    /// outputs entirely, never a mix (issue 13: two `convert --force` interleaved their rows).
    @Test func interleavedReplacingWritersLeaveOneWholeFile() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let a = try AtomicFile(path: dir + "/out.csv", existing: .replace)
        let b = try AtomicFile(path: dir + "/out.csv", existing: .replace)
        for i in 0..<100 {
            try a.write(Array("a\(i)\n".utf8))
            try b.write(Array("b\(i)\n".utf8))
        }
        try a.commit()
        try b.commit()
        #expect(try contents(dir + "/out.csv") == (0..<100).map { "b\($0)\n" }.joined())
        #expect(try entries(dir) == ["out.csv"])
    }

    @Test func directoriesAndMissingFoldersAreErrors() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        #expect(throws: SystemError(.isDirectory, call: "open", subject: dir)) { try AtomicFile(path: dir, existing: .replace) }
        #expect { try AtomicFile(path: dir + "/no/such/dir/x.csv", existing: .replace) } throws: { ($0 as? SystemError)?.errno == .noEntry }
    }
}

@Suite("ResolvedPath")
struct ResolvedPathTests {
    @Test func followsAChainOfRelativeLinksToTheFinalEntry() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
        #expect(symlink("sub/b", dir + "/a") == 0)
        #expect(symlink("c.csv", dir + "/sub/b") == 0)
        let r = try ResolvedPath.resolve(dir + "/a")
        #expect(r.path == dir + "/sub/c.csv" && r.directory == dir + "/sub" && r.name == "c.csv")
        #expect(try ResolvedPath.resolve("plain.csv") == ResolvedPath(path: "plain.csv", directory: ".", name: "plain.csv"))
    }

    @Test func aLoopIsAnError() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        #expect(symlink("y", dir + "/x") == 0)
        #expect(symlink("x", dir + "/y") == 0)
        #expect { try ResolvedPath.resolve(dir + "/x") } throws: { ($0 as? SystemError)?.errno == Errno(ELOOP) }
    }
}
