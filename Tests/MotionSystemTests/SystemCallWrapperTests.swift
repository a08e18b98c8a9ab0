import MotionSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The wrappers the capture waits with: a signal becomes a readable pipe, a timer fires at its
/// absolute time, and `PollSet` reports which descriptor woke it.
@Suite("Poll, timer, signal pipe", .serialized)
struct SystemCallWrapperTests {
    @Test func aSignalMakesThePipeReadableAndIsTakenOnce() throws {
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
