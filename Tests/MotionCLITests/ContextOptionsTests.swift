import Testing
@testable import MotionCLI
import MotionIIO

/// libiio's option spelling (`-u`, `-T`), `--range` validation, and the access states a context
/// that cannot be opened reveals.
struct ContextOptionsTests {
    @Test func shortURIAndTimeoutAreAcceptedAndAMissingContextIsAFailureWithItsState() {
        let r = runCLI(["devices", "-u", "xml:/nonexistent-motionbatch/ctx.xml", "-T", "500"])
        #expect(r.code == 1)
        #expect(r.err.contains("cannot open IIO context 'xml:/nonexistent-motionbatch/ctx.xml'"))
        let j = runCLI(["devices", "--uri", "xml:/nonexistent-motionbatch/ctx.xml", "--json"])
        #expect(j.code == 1 && j.out.contains("\"error\"") && j.out.contains("\"devices\": []"))
        #expect(runCLI(["devices", "-T", "soon"]).code == 64)
    }

    /// `devices --scan` lists what libiio's local and USB backends find (here possibly nothing)
    /// and says why boards on the network are not listed.
    @Test func scanListsContextsBackendByBackend() {
        let r = runCLI(["devices", "--scan", "--json"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("\"contexts\"") && r.out.contains("\"failed_backends\"") && r.out.contains("avahi"))
        let t = runCLI(["devices", "--scan"])
        #expect(t.code == 0 && !t.out.isEmpty)
    }

    @Test func anUnreachableBoardNamesIiodInTheRemedy() {
        let s = ContextOptions.state(for: .init(.connectionRefused, call: "iio_create_context_from_uri"), uri: "ip:127.0.0.1:1")
        #expect(s == .unreachable(uri: "ip:127.0.0.1:1"))
        #expect(s?.remedy.contains("iiod") == true)
        #expect(AccessState.disconnected(uri: "ip:x").isLoss && !AccessState.unreachable(uri: "ip:x").isLoss)
    }

    @Test(arguments: ["4", "-1g", "4g,8g", "fast"])
    func aBadRangeIsAUsageError(value: String) {
        let r = runCLI(["capture", "--range", value, "-u", "xml:/nonexistent-motionbatch/ctx.xml"])
        #expect(r.code == 64, "\(value): \(r.err)")
        #expect(r.err.contains("--range"))
    }

    @Test func rangesCombineOneAccelerometerAndOneGyroscope() throws {
        let r = try CaptureCommand.range(["4g", "500dps"])
        #expect(r.accel != nil && r.gyro != nil)
        #expect(throws: CLIError.self) { try CaptureCommand.range(["4g", "8g"]) }
    }
}
