import Synchronization

/// The process's one ``MotionSystem``-`SignalPipe` is shared by every test in the test process:
/// a test that raises a signal and expects to take it from the pipe, and a capture (which takes
/// whatever the pipe holds when it wakes), must not run at the same time, even from different
/// suites or modules (`.serialized` orders a suite's own tests only). Both hold this lock.
public enum SignalPipeTestLock {
    private static let mutex = Mutex(())

    /// Runs `body` while no other test that holds the lock runs.
    public static func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try mutex.withLock { _ in try body() }
    }
}
