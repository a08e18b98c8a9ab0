import Foundation
import MotionSystem
import MotionTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// ``TemporaryFileCleanup`` never takes a signal the process handles itself: a capture that keeps
/// a checkpoint's ``AtomicRewriter`` for its whole life must still stop cleanly on SIGTERM (its
/// ``SignalPipe``), not be ended by the cleanup's default action (kernel tests 65 and 67).
@Suite("TemporaryFileCleanup")
struct TemporaryFileCleanupTests {
    /// The process's own handler for the test (never run: no signal is sent).
    static let own: @convention(c) (Int32) -> Void = { _ in }

    static func handlerBits(_ sig: Int32) -> Int {
        var current = sigaction()
        _ = sigaction(sig, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
    }

    @Test func aSignalTheProcessHandlesStaysItsOwnWhileAFileIsRegistered() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = Self.own
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        #expect(sigaction(SIGHUP, &action, &previous) == 0)
        defer { sigaction(SIGHUP, &previous, nil) }
        let ownBits = unsafeBitCast(Self.own, to: Int.self)

        let dir = try TestPaths.makeScratchDirectory().path
        let rewriter = try AtomicRewriter(path: dir + "/c.checkpoint.json")
        #expect(TemporaryFileCleanup.registeredPaths.contains(rewriter.temporaryPath))
        #expect(Self.handlerBits(SIGHUP) == ownBits, "the cleanup took over a handled signal")
        try rewriter.replace(with: Array("x\n".utf8))
        let registration = try #require(TemporaryFileCleanup.register(dir + "/.other.tmp"))
        #expect(Self.handlerBits(SIGHUP) == ownBits)
        TemporaryFileCleanup.unregister(registration)
        #expect(Self.handlerBits(SIGHUP) == ownBits, "the cleanup put back a disposition over the process's handler")
        _ = rewriter
    }
}
