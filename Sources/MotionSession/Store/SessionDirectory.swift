import MotionSystem

/// An output directory of a capture session (`--output-dir`): created if missing, locked while
/// a session writes it (``MotionSystem/FileLock`` on ``RecordingNaming/lockName``, released by
/// the kernel however the process ends), its interrupted recordings (no summary) found for
/// ``RecordingRecovery``, and its finished recordings listed for ``RetentionPolicy``.
public enum SessionDirectory {
    /// What a directory holds.
    public struct Contents: Sendable {
        /// Finished recordings (with a summary), with their side files' bytes.
        public var finished: [StoredRecording]
        /// Recordings without a summary: interrupted (or being written, when the directory is
        /// locked by another session).
        public var interrupted: [String]
        /// Temporary files of an atomic write a crash left (`.NAME.HEX.tmp`).
        public var leftovers: [String]
    }

    /// Lists `dir`.
    /// - Throws: ``MotionSystem/SystemError`` from `opendir`.
    public static func contents(of dir: String) throws(SystemError) -> Contents {
        let entries = try Directory.entries(of: dir).filter(\.isRegularFile)
        let byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var finished: [StoredRecording] = []
        var interrupted: [String] = []
        for e in entries where RecordingNaming.isRecordingName(e.name) {
            let summary = RecordingNaming.summaryPath(of: e.name)
            let checkpoint = RecordingNaming.checkpointPath(of: e.name)
            let side = (byName[summary]?.size ?? 0) + (byName[checkpoint]?.size ?? 0)
            if byName[summary] != nil {
                finished.append(StoredRecording(name: e.name, bytes: e.size + side, modified: e.modified))
            } else {
                interrupted.append(e.name)
            }
        }
        let leftovers = entries.map(\.name).filter(AtomicFile.isTemporaryName)
        return Contents(finished: finished, interrupted: interrupted, leftovers: leftovers)
    }

    /// `dir/name`.
    public static func path(_ dir: String, _ name: String) -> String {
        (dir.hasSuffix("/") ? dir : dir + "/") + name
    }

    /// Creates `dir` if missing and takes its lock.
    /// - Returns: the lock, or nil when another session holds it.
    /// - Throws: ``MotionSystem/SystemError`` (`mkdir`, `open`, `flock`).
    public static func lock(_ dir: String) throws(SystemError) -> FileLock? {
        try Directory.create(dir)
        return try FileLock.tryAcquire(path(dir, RecordingNaming.lockName))
    }

    /// Whether a session is writing `dir` now.
    public static func isLocked(_ dir: String) -> Bool { FileLock.isHeld(path(dir, RecordingNaming.lockName)) }
}
