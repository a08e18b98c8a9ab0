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

    /// One member's value: an integer or a string, `null` when nil.
    enum Member {
        case int(Int64?)
        case string(String?)
    }

    /// The members written, in order (one list for ``json`` and ``encode(into:)``).
    func forEachMember(_ body: (StaticString, Member) -> Void) {
        let t = tally
        body("checkpoint", .int(Int64(Self.version)))
        body("session", .string(session))
        body("recording", .string(recording))
        body("sequence", .int(Int64(sequence)))
        body("start_utc", .string(startUTC))
        body("clock_sync", .string(clockSync))
        body("boot_id", .string(bootID))
        body("last_ns", .int(t.lastSample))
        body("samples", .int(Int64(t.samples)))
        body("batches", .int(Int64(t.batches)))
        body("lost_samples", .int(Int64(t.lostSamples)))
        body("gaps", .int(Int64(t.gaps)))
        body("pauses", .int(Int64(t.pauses)))
        body("paused_ns", .int(t.pausedNanoseconds))
        body("device_losses", .int(Int64(t.deviceLosses)))
        body("lost_ns", .int(t.lostNanoseconds))
        body("device_deliveries", .int(Int64(t.deviceDeliveries)))
        body("userspace_returns", .int(Int64(t.userspaceReturns)))
        body("scheduler_wakeups", .int(t.schedulerWakeups))
        body("cpu_ns", .int(t.cpuNanoseconds))
        body("elapsed_ns", .int(t.elapsedNanoseconds))
        body("events", .int(Int64(t.events)))
    }

    /// The JSON object written.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        forEachMember { key, value in
            let v: JSONValue = switch value {
            case .int(let i): i.map { .int($0) } ?? .null
            case .string(let s): s.map { .string($0) } ?? .null
            }
            members.append((key.description, v))
        }
        return .object(members)
    }

    /// Writes the checkpoint file's content, ``json`` serialized compactly and a newline, into
    /// `buffer` (emptied; no allocation once it has grown to a checkpoint's size).
    public func encode(into buffer: inout [UInt8]) {
        var json = JSONBytes(reusing: &buffer)
        json.beginObject()
        forEachMember { key, value in
            switch value {
            case .int(let i): json.member(key, int: i)
            case .string(let s): json.member(key, string: s)
            }
        }
        json.endObject()
        json.append(0x0A)
        json.finish(into: &buffer)
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
