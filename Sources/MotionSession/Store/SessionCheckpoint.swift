import Foundation
import MotionCore

/// The figures of a recording that only the running process knows (wake-ups, CPU time, batches,
/// pauses), saved beside the recording while it is written (`NAME.checkpoint.json`, replaced
/// atomically after the rows it describes were synced), so that `recover` can report them after
/// a crash instead of inventing them. The samples and the analysis are recomputed from the rows.
public struct SessionCheckpoint: Sendable, Equatable {
    /// The session id.
    public var session: String
    /// The recording's file name.
    public var recording: String
    /// Its place in the session.
    public var sequence: Int
    /// The recording's figures when the checkpoint was written.
    public var tally: SessionTally
    /// When the recording started (as its summary would say).
    public var startUTC: String?
    /// The wall clock's state then.
    public var clockSync: String?
    /// The boot id.
    public var bootID: String?

    /// Creates a checkpoint.
    public init(session: String, recording: String, sequence: Int, tally: SessionTally, startUTC: String?, clockSync: String?, bootID: String?) {
        self.session = session
        self.recording = recording
        self.sequence = sequence
        self.tally = tally
        self.startUTC = startUTC
        self.clockSync = clockSync
        self.bootID = bootID
    }

    /// The checkpoint's format version (the `checkpoint` key).
    public static let version = 1

    /// The JSON object written.
    public var json: JSONValue {
        let t = tally
        return .object([
            ("checkpoint", .int(Int64(Self.version))),
            ("session", .string(session)),
            ("recording", .string(recording)),
            ("sequence", .number(sequence)),
            ("start_utc", startUTC.map { .string($0) } ?? .null),
            ("clock_sync", clockSync.map { .string($0) } ?? .null),
            ("boot_id", bootID.map { .string($0) } ?? .null),
            ("last_ns", t.lastSample.map { .int($0) } ?? .null),
            ("samples", .number(t.samples)),
            ("batches", .number(t.batches)),
            ("lost_samples", .number(t.lostSamples)),
            ("gaps", .number(t.gaps)),
            ("pauses", .number(t.pauses)),
            ("paused_ns", .int(t.pausedNanoseconds)),
            ("device_losses", .number(t.deviceLosses)),
            ("lost_ns", .int(t.lostNanoseconds)),
            ("device_deliveries", .number(t.deviceDeliveries)),
            ("userspace_returns", .number(t.userspaceReturns)),
            ("scheduler_wakeups", t.schedulerWakeups.map { .int($0) } ?? .null),
            ("cpu_ns", t.cpuNanoseconds.map { .int($0) } ?? .null),
            ("elapsed_ns", .int(t.elapsedNanoseconds)),
            ("events", .number(t.events)),
        ])
    }

    /// Reads a checkpoint back from its bytes.
    /// - Throws: ``CheckpointError`` naming the file and the key at fault.
    public static func decode(_ bytes: [UInt8], file: String) throws(CheckpointError) -> SessionCheckpoint {
        let any: Any
        do { any = try JSONSerialization.jsonObject(with: Data(bytes)) } catch {
            throw CheckpointError(file: file, problem: "not valid JSON")
        }
        guard let o = any as? [String: Any] else { throw CheckpointError(file: file, problem: "expected a JSON object") }
        func int(_ key: String, optional: Bool = false) throws(CheckpointError) -> Int64? {
            guard let v = o[key], !(v is NSNull) else {
                if optional { return nil }
                throw CheckpointError(file: file, problem: "missing key '\(key)'")
            }
            guard let n = v as? NSNumber, !"cB".contains(String(cString: n.objCType)), let i = Int64(exactly: n.doubleValue), i >= 0 else {
                throw CheckpointError(file: file, problem: "key '\(key)' must be a whole number >= 0")
            }
            return i
        }
        func string(_ key: String) throws(CheckpointError) -> String? {
            guard let v = o[key], !(v is NSNull) else { return nil }
            guard let s = v as? String else { throw CheckpointError(file: file, problem: "key '\(key)' must be a string") }
            return s
        }
        guard try int("checkpoint") == Int64(version) else { throw CheckpointError(file: file, problem: "unknown checkpoint version") }
        var t = SessionTally()
        t.lastSample = try int("last_ns", optional: true)
        t.samples = Int(try int("samples")!)
        t.batches = Int(try int("batches")!)
        t.lostSamples = Int(try int("lost_samples")!)
        t.gaps = Int(try int("gaps")!)
        t.pauses = Int(try int("pauses")!)
        t.pausedNanoseconds = try int("paused_ns")!
        t.deviceLosses = Int(try int("device_losses")!)
        t.lostNanoseconds = try int("lost_ns")!
        t.deviceDeliveries = Int(try int("device_deliveries")!)
        t.userspaceReturns = Int(try int("userspace_returns")!)
        t.schedulerWakeups = try int("scheduler_wakeups", optional: true)
        t.cpuNanoseconds = try int("cpu_ns", optional: true)
        t.elapsedNanoseconds = try int("elapsed_ns")!
        t.events = Int(try int("events")!)
        guard let session = try string("session"), let recording = try string("recording") else {
            throw CheckpointError(file: file, problem: "missing key 'session' or 'recording'")
        }
        return SessionCheckpoint(session: session, recording: recording, sequence: Int(try int("sequence")!), tally: t,
                                 startUTC: try string("start_utc"), clockSync: try string("clock_sync"), bootID: try string("boot_id"))
    }
}

/// A checkpoint that cannot be read.
public struct CheckpointError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// What is wrong.
    public var problem: String
    /// `file: problem`.
    public var description: String { "\(file): \(problem)" }
}
