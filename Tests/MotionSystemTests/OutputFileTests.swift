import Foundation
import MotionSystem
import MotionTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("OutputFile")
struct OutputFileTests {
    @Test(arguments: ["-", "/dev/stdout", "/dev/stderr", "/dev/fd/2", "/proc/self/fd/1", "/dev/null"])
    func streamsAreWrittenDirectly(path: String) throws {
        let out = try OutputFile(path: path, mode: .atomic(replace: false))
        #expect(out.kind == .stream)
        try out.sync()  // a no-op for streams: pipes and terminals cannot be fsynced
        try out.commit()
    }

    @Test func aFIFOIsAStreamAndNeverFsynced() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reading end, opened non-blocking so that the writer's open does not wait.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let out = try OutputFile(path: fifo, mode: .atomic(replace: false))
        #expect(out.kind == .stream)
        try out.write(Array("row\n".utf8))
        try out.sync()
        try out.commit()
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = read(reader, &buffer, buffer.count)
        #expect(n == 4 && Array(buffer[..<4]) == Array("row\n".utf8))
        #expect(try entries(dir) == ["pipe"], "no temporary beside a FIFO")
    }

    @Test func regularFilesAreAtomicAndJournalsAppend() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        let atomic = try OutputFile(path: dir + "/a.csv", mode: .atomic(replace: false))
        #expect(atomic.kind == .atomic && atomic.identity == nil)
        try atomic.write(Array("a".utf8))
        try atomic.commit()
        let journal = try OutputFile(path: dir + "/j.csv", mode: .journal(replace: false))
        #expect(journal.kind == .journal)
        try journal.write(Array("j".utf8))
        #expect(try contents(dir + "/j.csv") == "j", "a journal is written at its final path")
        try journal.commit()
        #expect(journal.identity == (try FileIdentity.of(path: dir + "/j.csv")))
        let replacing = try OutputFile(path: dir + "/a.csv", mode: .atomic(replace: true))
        #expect(replacing.identity == (try FileIdentity.of(path: dir + "/a.csv")), "the file it would replace")
        replacing.discard()
        #expect(try contents(dir + "/a.csv") == "a")
    }

    @Test func directoriesAreRefused() throws {
        let dir = try TestPaths.makeScratchDirectory().path
        #expect(throws: SystemError(.isDirectory, call: "open", subject: dir)) { try OutputFile(path: dir, mode: .atomic(replace: true)) }
    }

    @Test func identityOfAnOpenDescriptorIsItsFile() throws {
        let path = try TestPaths.scratchFile("x")
        let fd = try FileDescriptor.openForReading(path)
        #expect(try fd.identity() == FileIdentity.of(path: path))
        #expect(fd.isRegularFile)
        #expect(try FileIdentity.of(path: path + ".missing") == nil)
    }
}
