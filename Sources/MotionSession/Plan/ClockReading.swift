import MotionSystem

/// The clocks at one moment, as the session driver read them (``SessionRecorder``): the pure
/// session logic never reads a clock itself.
public struct ClockReading: Hashable, Sendable {
    /// `CLOCK_REALTIME`, ns since the Unix epoch (wrong on a board without a real-time clock until
    /// NTP synchronized it: see ``sync``).
    public var wallNanoseconds: Int64
    /// Whether the wall clock was synchronized then.
    public var sync: WallClock.SyncState
    /// `CLOCK_MONOTONIC`, ns.
    public var monotonicNanoseconds: Int64
    /// The kernel's boot id, when readable.
    public var bootID: String?

    /// Creates a reading.
    public init(wallNanoseconds: Int64, sync: WallClock.SyncState, monotonicNanoseconds: Int64, bootID: String?) {
        self.wallNanoseconds = wallNanoseconds
        self.sync = sync
        self.monotonicNanoseconds = monotonicNanoseconds
        self.bootID = bootID
    }

    /// Reads the clocks now (`clock_gettime`, `adjtimex`; the boot id once, by the caller).
    public static func now(bootID: String?) -> ClockReading {
        ClockReading(wallNanoseconds: WallClock.nanoseconds(), sync: WallClock.syncState(),
                     monotonicNanoseconds: MonotonicClock.nanoseconds(), bootID: bootID)
    }

    /// The wall time (ns since the epoch) of monotonic instant `t`, when the wall clock is
    /// synchronized; nil otherwise.
    public func wallTime(ofMonotonic t: Int64) -> Int64? {
        sync.synchronized ? wallNanoseconds - (monotonicNanoseconds - t) : nil
    }
}
