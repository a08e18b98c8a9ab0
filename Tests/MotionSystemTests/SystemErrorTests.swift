import MotionSystem
import MotionTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("SystemError and Errno")
struct SystemErrorTests {
    @Test func describesCallSubjectAndCode() {
        let e = SystemError(.noEntry, call: "open", subject: "/x/y.csv")
        #expect(e.description == "/x/y.csv: open failed: No such file or directory (errno 2)")
        #expect(SystemError(.busy, call: "poll").description == "poll failed: Device or resource busy (errno 16)")
        #expect(SystemError(.timedOut, call: "iio_buffer_refill", message: "Connection timed out").reason == "Connection timed out")
    }

    @Test(arguments: [(Errno.wouldBlock, EAGAIN), (.interrupted, EINTR), (.permissionDenied, EACCES),
                      (.busy, EBUSY), (.noDevice, ENODEV), (.noSpace, ENOSPC), (.exists, EEXIST)])
    func namedCodesAreTheCValues(named: Errno, raw: Int32) {
        #expect(named.rawValue == raw)
        #expect(Errno(raw) == named)
    }

    @Test func currentReadsErrnoAfterAFailedCall() {
        let fd = open("/nonexistent-motionbatch/x", O_RDONLY)
        #expect(fd == -1)
        let e = SystemError.current("open", subject: "/nonexistent-motionbatch/x")
        #expect(e.errno == .noEntry)
        switch e.errno {
        case .noEntry: break
        default: Issue.record("expected ENOENT, got \(e.errno.rawValue)")
        }
    }
}

@Suite("FileDescriptor")
struct FileDescriptorTests {
    @Test func writesReadsAndReportsRemainingBytes() throws {
        let dir = try TestPaths.makeScratchDirectory()
        let path = dir.appendingPathComponent("f.bin").path
        let out = try FileDescriptor.create(path, replaceExisting: false)
        try out.write(Array("hello, world".utf8))
        try out.sync()
        try out.close()
        try out.close() // idempotent
        #expect(throws: SystemError(.exists, call: "open", subject: path)) {
            _ = try FileDescriptor.create(path, replaceExisting: false)
        }
        let input = try FileDescriptor.openForReading(path)
        #expect(input.bytesRemaining() == 12)
        var buffer = [UInt8](repeating: 0, count: 5)
        let n = try buffer.withUnsafeMutableBytes { try input.read(into: $0.baseAddress!, count: 5) }
        #expect(n == 5 && buffer == Array("hello".utf8))
        #expect(input.bytesRemaining() == 7)
        #expect(try FileDescriptor.openForReading("/dev/null").bytesRemaining() == nil)
        try FileDescriptor.syncDirectory(containing: path)
    }

    @Test func failuresNameTheCallAndPath() {
        #expect(throws: SystemError(.noEntry, call: "open", subject: "/nonexistent-motionbatch/dir/x")) {
            try FileDescriptor.syncDirectory(containing: "/nonexistent-motionbatch/dir/x/y")
        }
    }
}
