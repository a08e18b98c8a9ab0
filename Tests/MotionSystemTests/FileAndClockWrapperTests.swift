import Foundation
import MotionSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The wrappers a capture session writes and names its files with: atomic replacement, locks,
/// directory listing, truncation, the wall clock and its sync state, device events.
@Suite struct FileAndClockWrapperTests {
    func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("motionbatch-system-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    @Test func anAtomicFileIsWholeOrAbsentAndRefusesToReplaceWhenAsked() throws {
        let dir = try scratch()
        let path = dir + "/a.json"
        try AtomicFile.write(Array("one".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one")
        try AtomicFile.write(Array("two".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        #expect(throws: SystemError.self) { try AtomicFile.write(Array("three".utf8), to: path, existing: .refuse) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        // Before the commit the final path is untouched and the temporary name is recognisable;
        // a discarded (or released) file leaves nothing.
        let f = try AtomicFile(path: path, existing: .replace)
        try f.write(Array("partial".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        let tmp = String(f.temporaryPath.split(separator: "/").last!)
        #expect(AtomicFile.isTemporaryName(tmp))
        f.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["a.json"])
        #expect(!AtomicFile.isTemporaryName("a.json") && !AtomicFile.isTemporaryName(".a.json.xyz.tmp") && AtomicFile.isTemporaryName(".a.json.00ff.tmp"))
    }

    @Test func aLockIsHeldUntilReleased() throws {
        let path = try scratch() + "/l.lock"
        #expect(!FileLock.isHeld(path))
        let a = try #require(try FileLock.tryAcquire(path))
        #expect(try FileLock.tryAcquire(path) == nil)
        #expect(FileLock.isHeld(path))
        a.release()
        #expect(!FileLock.isHeld(path))
        #expect(try FileLock.tryAcquire(path) != nil)
    }

    @Test func directoriesListCreateAndRemove() throws {
        let dir = try scratch()
        try Data("abc".utf8).write(to: URL(fileURLWithPath: dir + "/b.csv"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/a.csv"))
        try Directory.create(dir + "/sub")
        try Directory.create(dir + "/sub")  // exists: fine
        #expect(throws: SystemError.self) { try Directory.create(dir + "/a.csv") }
        let e = try Directory.entries(of: dir)
        #expect(e.map(\.name) == ["a.csv", "b.csv", "sub"] && e.map(\.size).prefix(2) == [1, 3] && e.map(\.isRegularFile) == [true, true, false])
        #expect(e[0].modified > 1_600_000_000_000_000_000)
        try Directory.removeFile(dir + "/a.csv")
        try Directory.removeFile(dir + "/a.csv")  // gone: fine
        #expect(!Directory.exists(dir + "/a.csv") && Directory.isDirectory(dir + "/sub"))
        #expect(throws: SystemError.self) { try Directory.entries(of: dir + "/none") }
    }

    @Test func aFileIsTruncatedAndReadAtAnOffset() throws {
        let path = try scratch() + "/t.csv"
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
        let fd = try FileDescriptor.open(path, flags: O_RDWR)
        var buf = [UInt8](repeating: 0, count: 4)
        let n = try buf.withUnsafeMutableBytes { b throws(SystemError) in try fd.read(into: b.baseAddress!, count: 4, at: 6) }
        #expect(n == 4 && buf == Array("6789".utf8))
        try fd.truncate(to: 3)
        try fd.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "012")
    }

    @Test func theWallClockAndItsState() {
        #expect(WallClock.nanoseconds() > 1_700_000_000_000_000_000)
        let s = WallClock.syncState()
        #expect(s.description == (s.synchronized ? "synchronized" + (s.maxErrorMicroseconds.map { " maxerror_us=\($0)" } ?? "") : "unsynchronized"))
        #expect(WallClock.SyncState(synchronized: false).description == "unsynchronized")
        #expect(WallClock.SyncState(synchronized: true, maxErrorMicroseconds: 16000).description == "synchronized maxerror_us=16000")
        if let id = WallClock.bootID() { #expect(id.count == 36 && id.filter { $0 == "-" }.count == 4) }
    }

    @Test func deviceEventsFromTheKernelAndFromUdev() {
        let kernel = Array("add@/devices/virtual/misc/uhid/0003:0000:0000.0001/HID-SENSOR-200073.1.auto/iio:device0\0ACTION=add\0DEVPATH=/devices/x/iio:device0\0SUBSYSTEM=iio\0SEQNUM=7\0".utf8)
        #expect(UEventSocket.Event.parse(kernel) == UEventSocket.Event(action: "add", devpath: "/devices/virtual/misc/uhid/0003:0000:0000.0001/HID-SENSOR-200073.1.auto/iio:device0", subsystem: "iio", source: .kernel))
        // udev's: "libudev\0", a binary header (with zero bytes), then the properties.
        var udev = Array("libudev\0".utf8) + [0xfe, 0xed, 0xca, 0xfe, 40, 0, 0, 0, 40, 0, 0, 0, 60, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        udev += Array("ACTION=remove\0DEVPATH=/devices/x/iio:device1\0SUBSYSTEM=iio\0USEC_INITIALIZED=1\0".utf8)
        #expect(UEventSocket.Event.parse(udev) == UEventSocket.Event(action: "remove", devpath: "/devices/x/iio:device1", subsystem: "iio", source: .udev))
        #expect(UEventSocket.Event.parse(Array("garbage".utf8)) == nil)
        #expect(UEventSocket.Event.parse([UInt8]()) == nil)
        #expect(UEventSocket.Event.parse(Array("libudev\0\0\0\0".utf8)) == nil)
    }
}
