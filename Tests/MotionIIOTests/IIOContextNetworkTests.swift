import Foundation
import MotionIIO
import MotionSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An `ip:` context survives iiod closing the connection: libiio 0.24 sends without
/// `MSG_NOSIGNAL`, so without ``BrokenPipeSignal`` the send after the peer's reset ended the
/// process by SIGPIPE (kernel test 62's capture, killed 3.3 s in, exit 141, nothing saved).
/// Each case runs in a child process (an exit test): it changes the process's SIGPIPE disposition.
@Suite("IIOContext over the network")
struct IIOContextNetworkTests {
    @Test func aConnectionIiodClosedFailsCallsWithoutEndingTheProcess() async {
        await #expect(processExitsWith: .success) {
            guard !BrokenPipeSignal.isIgnored else { exit(3) }  // the child starts with the default
            guard let server = FakeIiod.start() else { exit(4) }
            let context: IIOContext
            do { context = try IIOContext(uri: "ip:127.0.0.1:\(server.port)") } catch { exit(5) }
            guard let device = context.device(named: "accel_3d") else { exit(6) }
            // The server closes the connection at the first READ; the calls after it send to a
            // closed socket (the first gets the reset, the later ones EPIPE, which raised SIGPIPE).
            var failures = 0
            for _ in 0..<5 {
                do { _ = try device.readAttribute("sampling_frequency") } catch { failures += 1 }
                usleep(50_000)
            }
            exit(failures == 5 && BrokenPipeSignal.isIgnored ? 0 : 7)
        }
    }

    @Test func aLocalOrXMLContextLeavesSIGPIPEAlone() async {
        await #expect(processExitsWith: .success) {
            _ = try? IIOContext(uri: "xml:/nonexistent-motionbatch/ctx.xml")
            _ = try? IIOContext(xml: "<context name=\"xml\"></context>")
            exit(BrokenPipeSignal.isIgnored ? 1 : 0)
        }
    }
}

/// A minimal iiod on 127.0.0.1: answers `PRINT` with a one-device context, any other command with
/// `0`, and closes the connection at the first `READ`. One connection, then the thread ends.
private struct FakeIiod {
    let port: UInt16

    static let xml = #"<?xml version="1.0" encoding="utf-8"?><context name="network" ><device id="iio:device0" name="accel_3d" ><attribute name="sampling_frequency" /></device></context>"#

    static func start() -> FakeIiod? {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                bind(listener, a, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, a, &length) == 0
            }
        }
        guard bound else { close(listener); return nil }
        let thread = Thread { serve(listener) }
        thread.start()
        return FakeIiod(port: UInt16(bigEndian: address.sin_port))
    }

    private static func serve(_ listener: Int32) {
        let connection = accept(listener, nil, nil)
        close(listener)
        guard connection >= 0 else { return }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(connection, &byte, 1) == 1 {
            guard byte == UInt8(ascii: "\n") else { line.append(byte); continue }
            let command = String(decoding: line, as: UTF8.self)
            line.removeAll()
            if command.hasPrefix("READ") { break }
            let reply = command.hasPrefix("PRINT") ? "\(xml.utf8.count)\n\(xml)\n" : "0\n"
            _ = reply.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        }
        close(connection)
    }
}
