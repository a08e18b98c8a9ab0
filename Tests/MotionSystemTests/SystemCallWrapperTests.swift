import MotionSystem
import MotionTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The wrappers the capture waits with: a signal becomes a readable pipe, a timer fires at its
/// absolute time, and `PollSet` reports which descriptor woke it.
@Suite("Poll, timer, signal pipe", .serialized)
struct SystemCallWrapperTests {
    @Test func aSignalMakesThePipeReadableAndIsTakenOnce() throws {
        try SignalPipeTestLock.withLock { try signalIsTakenOnce() }
    }

    private func signalIsTakenOnce() throws {
        try SignalPipe.install([SIGUSR2])
        defer { SignalPipe.uninstall([SIGUSR2]) }
        _ = SignalPipe.take()
        var set = PollSet()
        let i = set.add(SignalPipe.descriptor)
        #expect(try set.wait(timeoutMilliseconds: 0) == 0)
        SignalPipe.raise(SIGUSR2)
        #expect(try set.wait(timeoutMilliseconds: 1000) == 1)
        #expect(set.returned(i).contains(.readable))
        #expect(SignalPipe.take() == [SIGUSR2])
        #expect(SignalPipe.take().isEmpty)
    }

    @Test func theTimerFiresAtItsAbsoluteTimeAndNotBefore() throws {
        let timer = try MonotonicTimer()
        var set = PollSet()
        let i = set.add(timer.fd)
        let start = MonotonicClock.nanoseconds()
        try timer.arm(at: start + 50_000_000)
        #expect(timer.armedAt == start + 50_000_000)
        #expect(try set.wait(timeoutMilliseconds: 5_000) == 1)
        #expect(MonotonicClock.nanoseconds() >= start + 50_000_000)
        #expect(set.returned(i).contains(.readable))
        #expect(timer.acknowledge() == 1 && timer.armedAt == nil)
        // Disarmed: a wait times out.
        try timer.arm(at: nil)
        #expect(try set.wait(timeoutMilliseconds: 20) == 0)
    }

    /// `waitWhile(onlyReadable:)`: runs its body for each wake-up with only that descriptor
    /// readable, stops when the body says so, and hands back a wake-up with another descriptor.
    @Test func waitingWhileOnlyOneDescriptorIsReadable() throws {
        var p: [Int32] = [0, 0], q: [Int32] = [0, 0]
        #expect(pipe(&p) == 0 && pipe(&q) == 0)
        defer { for fd in p + q { close(fd) } }
        var set = PollSet()
        let data = set.add(p[0]), other = set.add(q[0])
        var byte: UInt8 = 1
        // Five bytes, each read by the body: five wake-ups, ended by the body at the fifth.
        for _ in 0..<5 { _ = write(p[1], &byte, 1) }
        var read = 0
        let r = set.waitWhile(onlyReadable: data) {
            var b: UInt8 = 0
            if Glibc.read(p[0], &b, 1) == 1 { read += 1 }
            return read < 5
        }
        #expect(r.wakeups == 5 && r.ended == nil && read == 5)
        // The other descriptor readable too: the loop ends at once with both reported.
        _ = write(p[1], &byte, 1)
        _ = write(q[1], &byte, 1)
        var calls = 0
        let s = set.waitWhile(onlyReadable: data) { calls += 1; return true }
        #expect(s.wakeups == 0 && s.ended == 2 && calls == 0)
        #expect(set.returned(data) == .readable && set.returned(other) == .readable)
    }

    @Test func aWatcherRunsItsActionWhenADescriptorBecomesReadable() throws {
        let timer = try MonotonicTimer()
        try timer.arm(at: MonotonicClock.nanoseconds() + 20_000_000)
        let watcher = try DescriptorWatcher(descriptors: [timer.fd]) {}
        MonotonicClock.sleep(until: MonotonicClock.nanoseconds() + 200_000_000)
        #expect(watcher.fired)
        watcher.stop()
        let quiet = try MonotonicTimer()
        let idle = try DescriptorWatcher(descriptors: [quiet.fd]) {}
        idle.stop() // ends a waiting thread without firing
        #expect(!idle.fired)
    }

    @Test func theSchedulerPolicyIsReadAndPutBack() throws {
        let before = try Scheduler.current()
        if let previous = Scheduler.switchTo(.batch) {
            #expect(try Scheduler.current() == .batch)
            try Scheduler.set(previous)
        }
        #expect(try Scheduler.current() == before)
    }
}
