import MotionCore

/// How a session names its recordings and their side files.
///
/// In an output directory a recording is named by its start: `2026-12-01T09-19-18Z.csv` (UTC)
/// when the wall clock is synchronized, else `boot-1a2b3c4d-000000012.345.csv` (the boot id's
/// first 8 hex digits and the monotonic clock in seconds, zero-padded so that names sort in time
/// order within one boot). A name already taken gets `-2`, `-3`, ... A recording given with `-o
/// FILE` keeps that name; the recordings that continue it (after a reconnection) are
/// `FILE-2.csv`, `FILE-3.csv`, ... Beside each recording `NAME.csv`: its summary
/// `NAME.summary.json` and, while it is being written, its checkpoint `NAME.checkpoint.json`.
public enum RecordingNaming {
    /// The extension of recordings.
    public static let recordingExtension = ".csv"
    /// The suffix of a recording's summary (replacing ``recordingExtension``).
    public static let summarySuffix = ".summary.json"
    /// The suffix of a recording's checkpoint (replacing ``recordingExtension``).
    public static let checkpointSuffix = ".checkpoint.json"
    /// The lock file of an output directory (held by the session writing it).
    public static let lockName = ".motionbatch.lock"

    /// The name stem for a recording started at `clock`.
    public static func stem(for clock: ClockReading) -> String {
        if clock.sync.synchronized { return UTCTime.fileStamp(clock.wallNanoseconds) }
        let boot = String((clock.bootID ?? "unknown").filter(\.isHexDigit).prefix(8))
        let ms = max(0, clock.monotonicNanoseconds / 1_000_000)
        let whole = String(ms / 1000)
        let frac = String(ms % 1000)
        return "boot-\(boot.isEmpty ? "unknown" : boot)-\(String(repeating: "0", count: max(0, 9 - whole.count)) + whole).\(String(repeating: "0", count: 3 - frac.count) + frac)"
    }

    /// `stem.csv`, or `stem-N.csv` with the smallest N >= 2 not in `taken`.
    public static func recordingName(stem: String, taken: Set<String>) -> String {
        var name = stem + recordingExtension
        var n = 2
        while taken.contains(name) {
            name = "\(stem)-\(n)\(recordingExtension)"
            n += 1
        }
        return name
    }

    /// The `number`-th recording of a session given as `-o path` (1: `path` itself).
    public static func continuation(of path: String, number: Int) -> String {
        guard number > 1 else { return path }
        let slash = path.lastIndex(of: "/")
        let nameStart = slash.map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[nameStart...].lastIndex(of: "."), dot != nameStart {
            return String(path[..<dot]) + "-\(number)" + String(path[dot...])
        }
        return path + "-\(number)"
    }

    /// `x.csv` → `x.summary.json` (a path keeps its directory).
    public static func summaryPath(of recording: String) -> String { base(recording) + summarySuffix }

    /// `x.csv` → `x.checkpoint.json`.
    public static func checkpointPath(of recording: String) -> String { base(recording) + checkpointSuffix }

    /// Whether a file name in an output directory is a recording (`*.csv`, not hidden).
    public static func isRecordingName(_ name: String) -> Bool {
        name.hasSuffix(recordingExtension) && !name.hasPrefix(".") && name.count > recordingExtension.count
    }

    /// The recording a side file belongs to (`x.summary.json` → `x.csv`), or nil.
    public static func recording(ofSideFile name: String) -> String? {
        for suffix in [summarySuffix, checkpointSuffix] where name.hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count)) + recordingExtension
        }
        return nil
    }

    private static func base(_ recording: String) -> String {
        recording.hasSuffix(recordingExtension) ? String(recording.dropLast(recordingExtension.count)) : recording
    }
}
