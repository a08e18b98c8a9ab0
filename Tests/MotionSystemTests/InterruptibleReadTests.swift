import Testing
#if canImport(Glibc)
import Glibc
#endif
import MotionTestSupport
import Synchronization
@testable import MotionSystem

/// A run of blocking reads (the per-sample capture's wait without `poll`) on a real pipe: data
/// ends a read, and the deadline and a signal end the run, whenever they come, leaving the
/// descriptor non-blocking as it was. Every test holds ``MotionTestSupport/SignalPipeTestLock``:
/// a signal another suite raises would end a run early (the handler ends any run in progress).
/// Set by the thread that sent the signal.
private final class Sent: Sendable { let done = Mutex(false) }

/// Ends a read the code under test failed to end: 5 s after its start it writes one byte into
/// the pipe, so that the read returns 1 (a failed expectation) instead of hanging the test run.
private final class Watchdog: Sendable {
    private let state = Mutex((cancelled: false, finished: false))

    init(writing fd: Int32, at deadline: Int64) {
        let started = WorkerThread.start { [self] in
            while !state.withLock({ $0.cancelled }) {
                if MonotonicClock.nanoseconds() >= deadline {
                    var byte: UInt8 = 0
                    _ = write(fd, &byte, 1)
                    break
                }
                _ = MonotonicClock.sleep(until: MonotonicClock.nanoseconds() + 10_000_000)
            }
            state.withLock { $0.finished = true }
        }
        if !started { state.withLock { $0.finished = true } }
    }

    /// Stops it and waits until its thread is done (before the pipe is closed).
    func stop() {
        state.withLock { $0.cancelled = true }
        while !state.withLock({ $0.finished }) { _ = MonotonicClock.sleep(until: MonotonicClock.nanoseconds() + 1_000_000) }
    }
}

/// The time limit is only a backstop (the ``Watchdog`` ends a hung read after 5 s): it counts from
/// the moment the test is scheduled, including the wait for the signal-pipe lock and for a thread
/// of the test pool, which on a two-core machine busy with the dataset evaluations was 390 s once
/// (a limit of one minute failed `dataEndsAReadAndTheDeadlineEndsTheRun` whose reads took 0.2 s).
@Suite("Interruptible blocking reads", .serialized, .timeLimit(.minutes(15)))
struct InterruptibleReadTests {
    /// One `read` of up to 64 bytes: the count, or -errno.
    private func readOnce(_ fd: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n >= 0 ? n : -Int(errno)
    }

    private func isNonBlocking(_ fd: Int32) -> Bool { fcntl(fd, F_GETFL) & O_NONBLOCK != 0 }

    @Test func dataEndsAReadAndTheDeadlineEndsTheRun() throws {
        try SignalPipeTestLock.withLock { try deadlineEndsTheRun() }
    }

    private func deadlineEndsTheRun() throws {
        let pipe = try PipePair()
        #expect(isNonBlocking(pipe.readEnd))
        let start = MonotonicClock.nanoseconds()
        let watchdog = Watchdog(writing: pipe.writeEnd, at: start + 5_000_000_000)
        defer { watchdog.stop() }
        #expect(InterruptibleRead.begin(pipe.readEnd, on: InterruptibleRead.Reader(), until: start + 200_000_000, signalsBefore: SignalPipe.received))
        #expect(!isNonBlocking(pipe.readEnd) && !InterruptibleRead.interrupted)
        var three: [UInt8] = [1, 2, 3]
        #expect(write(pipe.writeEnd, &three, 3) == 3)
        #expect(readOnce(pipe.readEnd) == 3)
        #expect(!InterruptibleRead.interrupted)
        // Nothing more: the read sleeps until the deadline, then says EAGAIN.
        #expect(readOnce(pipe.readEnd) == -Int(EAGAIN))
        let elapsed = MonotonicClock.nanoseconds() - start
        #expect(InterruptibleRead.interrupted)
        #expect(elapsed >= 200_000_000 && elapsed < 5_000_000_000)
        InterruptibleRead.end()
        #expect(isNonBlocking(pipe.readEnd))
    }

    @Test func aSignalFromAnotherThreadEndsASleepingRead() throws {
        try SignalPipeTestLock.withLock {
            try SignalPipe.install([SIGUSR2])
            defer { SignalPipe.uninstall([SIGUSR2]) }
            _ = SignalPipe.take()
            let pipe = try PipePair()
            let start = MonotonicClock.nanoseconds()
            let watchdog = Watchdog(writing: pipe.writeEnd, at: start + 5_000_000_000)
            defer { watchdog.stop() }
            #expect(InterruptibleRead.begin(pipe.readEnd, on: InterruptibleRead.Reader(), until: start + 20_000_000_000, signalsBefore: SignalPipe.received))
            // Sent to the process (as kill(1) does) 100 ms into the read: whichever thread takes
            // it, the read returns.
            let sent = Sent()
            #expect(WorkerThread.start {
                _ = MonotonicClock.sleep(until: start + 100_000_000)
                SignalPipe.raise(SIGUSR2)
                sent.done.withLock { $0 = true }
            })
            #expect(readOnce(pipe.readEnd) == -Int(EAGAIN))
            let elapsed = MonotonicClock.nanoseconds() - start
            InterruptibleRead.end()
            while !sent.done.withLock({ $0 }) { _ = MonotonicClock.sleep(until: MonotonicClock.nanoseconds() + 1_000_000) }
            #expect(InterruptibleRead.interrupted)
            #expect(elapsed >= 100_000_000 && elapsed < 5_000_000_000)
            #expect(isNonBlocking(pipe.readEnd))
            #expect(SignalPipe.take() == [SIGUSR2])
        }
    }

    @Test func aSignalCountedBeforeTheRunEndsItAtOnce() throws {
        try SignalPipeTestLock.withLock { try signalBeforeTheRun() }
    }

    private func signalBeforeTheRun() throws {
        let pipe = try PipePair()
        let start = MonotonicClock.nanoseconds()
        let watchdog = Watchdog(writing: pipe.writeEnd, at: start + 5_000_000_000)
        defer { watchdog.stop() }
        // The caller last emptied the pipe before a signal it has not seen (the count moved on).
        #expect(InterruptibleRead.begin(pipe.readEnd, on: InterruptibleRead.Reader(), until: start + 20_000_000_000, signalsBefore: SignalPipe.received &- 1))
        #expect(InterruptibleRead.interrupted)
        #expect(readOnce(pipe.readEnd) == -Int(EAGAIN))
        InterruptibleRead.end()
        #expect(MonotonicClock.nanoseconds() - start < 5_000_000_000)
    }

    @Test func oneRunAtATimeInTheProcess() throws {
        try SignalPipeTestLock.withLock { try oneRunAtATime() }
    }

    private func oneRunAtATime() throws {
        let a = try PipePair(), b = try PipePair()
        let until = MonotonicClock.nanoseconds() + 20_000_000_000
        #expect(InterruptibleRead.begin(a.readEnd, on: InterruptibleRead.Reader(), until: until, signalsBefore: SignalPipe.received))
        #expect(!InterruptibleRead.begin(b.readEnd, on: InterruptibleRead.Reader(), until: until, signalsBefore: SignalPipe.received))
        #expect(isNonBlocking(b.readEnd))
        InterruptibleRead.end()
        #expect(InterruptibleRead.begin(b.readEnd, on: InterruptibleRead.Reader(), until: until, signalsBefore: SignalPipe.received))
        InterruptibleRead.end()
        #expect(isNonBlocking(a.readEnd) && isNonBlocking(b.readEnd))
    }
}
