import Foundation
@testable import MotionCore
import MotionTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Members that exist but cannot be read are named as such (encrypted, an unsupported method, a
/// bad CRC, a symlink loop, a device, a socket, a folder), never read around in silence.
@Suite struct UnreadableMemberTests {
    /// A Sensor Logger iOS zip whose `Accelerometer.csv` has `method` and `flags`.
    static func zip(method: Int, flags: Int) throws -> [UInt8] {
        ArchiveFixtures.zip(try ArchiveFixtures.sensorLoggerIOS().map { f in
            f.name == "Accelerometer.csv" ? ArchiveFixtures.Member(f.name, f.data, method: method, flags: flags) : ArchiveFixtures.Member(f.name, f.data)
        })
    }

    /// ZipCrypto (flag bit 0), AES (method 99) and the flag alone over plain data: "is encrypted".
    @Test(arguments: [(8, 1, "ZipCrypto"), (99, 1, "WinZip AES"), (0, 1, "ZipCrypto"), (8, 0x41, "PKWARE strong encryption")])
    func encryptedMembersAreNamed(method: Int, flags: Int, kind: String) throws {
        let text = ArchiveFixtures.message { _ = try RecordingReader(input: .bytes(try Self.zip(method: method, flags: flags), name: "e.zip")) }
        #expect(text?.hasPrefix("e.zip/Accelerometer.csv: byte 0: is encrypted (\(kind)") == true, "\(text ?? "no error")")
    }

    /// Members compressed with a method MotionBatch does not read: the method by name.
    @Test(arguments: [(12, "bzip2"), (14, "LZMA"), (93, "Zstandard"), (20, "Zstandard"), (9, "Deflate64"), (98, "PPMd"), (95, "xz"), (1, "Shrink"), (6, "Implode"), (77, "zip method 77")])
    func unsupportedMethodsAreNamed(method: Int, name: String) throws {
        let text = ArchiveFixtures.message { _ = try RecordingReader(input: .bytes(try Self.zip(method: method, flags: 0), name: "m.zip")) }
        #expect(text?.hasPrefix("m.zip/Accelerometer.csv: byte 0: is compressed with \(name)") == true, "\(text ?? "no error")")
        #expect(text?.contains("which MotionBatch does not read (only stored and deflate)") == true)
    }

    /// A gzip whose trailer CRC-32 (or length) is wrong: said in MotionBatch's words.
    @Test(arguments: [(8, "CRC-32"), (4, "length")])
    func aGzipTrailerMismatchIsNamed(fromEnd: Int, field: String) throws {
        var gz = ArchiveFixtures.deflate(head: DecompressionBombTests.header + DecompressionBombTests.rows, gzip: true)
        gz[gz.count - fromEnd] ^= 0x5A
        let text = ArchiveFixtures.message { try ArchiveFixtures.drain(RecordingReader(input: .bytes(gz, name: "bad.csv.gz"))) }
        #expect(text?.contains("the \(field) in the gzip trailer does not match the decompressed data") == true, "\(text ?? "no error")")
    }

    /// A Sensor Logger iOS folder (Accelerometer, Gravity, Gyroscope) with a broken
    /// `TotalAcceleration.csv`: an error naming it and what it is, never the recording read from
    /// the other files.
    @Test(arguments: ["self-symlink", "cycle", "dangling", "folder", "socket", "device", "fifo"])
    func aBrokenMemberOfAFolderIsNamed(kind: String) throws {
        let dir = try TestPaths.makeScratchDirectory().path
        for f in try ArchiveFixtures.sensorLoggerIOS() { try Data(f.data).write(to: URL(fileURLWithPath: dir + "/" + f.name)) }
        let member = dir + "/TotalAcceleration.csv"
        // Read without it first: the folder is a valid recording.
        #expect(try ArchiveFixtures.drain(RecordingReader(path: dir)) > 0)
        let expected: String
        switch kind {
        case "self-symlink":
            #expect(symlink("TotalAcceleration.csv", member) == 0)
            expected = "is a symbolic link loop"
        case "cycle":
            #expect(symlink("Other.csv", member) == 0 && symlink("TotalAcceleration.csv", dir + "/Other.csv") == 0)
            expected = "is a symbolic link loop"
        case "dangling":
            #expect(symlink("Missing.csv", member) == 0)
            expected = "is a symbolic link to nothing"
        case "folder":
            #expect(mkdir(member, 0o755) == 0)
            expected = "is a folder where the export has a file"
        case "socket":
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { p in
                for (i, b) in member.utf8.enumerated() where i < p.count - 1 { p[i] = b }
            }
            let rc = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            #expect(rc == 0)
            expected = "is a socket where the export has a file"
        case "device":
            #expect(symlink("/dev/null", member) == 0)
            expected = "is a character device where the export has a file"
        default:
            #expect(mkfifo(member, 0o600) == 0)
            expected = "is a named pipe (FIFO) where the export has a file"
        }
        let text = ArchiveFixtures.message { try ArchiveFixtures.drain(RecordingReader(path: dir)) }
        #expect(text?.hasPrefix(member + ": " + expected) == true, "\(text ?? "no error")")
    }
}
