import MotionMQTT
import MotionSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// libmosquitto writes to the broker with `write(2)`, which cannot pass `MSG_NOSIGNAL`, and so
/// ignores SIGPIPE for the whole process in `mosquitto_new`: a fleet command runs with the signal
/// ignored, and its closed output pipes end it through ``TemporaryFileCleanup/terminate(by:)``
/// (``BrokenPipeSignal``). In a child process (an exit test): it changes the disposition.
@Suite("MQTTClient and SIGPIPE")
struct MQTTClientSIGPIPETests {
    @Test func creatingAClientIgnoresSIGPIPE() async {
        await #expect(processExitsWith: .success) {
            guard !BrokenPipeSignal.isIgnored else { exit(3) }
            guard let client = try? MQTTClient(.init(clientID: "sigpipe-check")) else { exit(4) }
            _ = client
            exit(BrokenPipeSignal.isIgnored ? 0 : 5)
        }
    }
}
