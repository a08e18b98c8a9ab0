import Foundation
import Synchronization

/// Paths the tests share: the package root, the real datasets beside it, fresh scratch folders.
public enum TestPaths {
    /// The package root (this file is `<root>/Tests/MotionTestSupport/TestPaths.swift`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shared datasets folder: `$MOTIONBATCH_DATASETS`, else `<package root>/../shared/datasets`.
    public static let datasetsRoot: String = {
        if let env = ProcessInfo.processInfo.environment["MOTIONBATCH_DATASETS"], !env.isEmpty { return env }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets").path
    }()

    /// Whether the datasets folder is present (its `manifest.csv` exists). Tests that need it are
    /// skipped otherwise, with `datasetsMissingReason`.
    public static var datasetsPresent: Bool {
        FileManager.default.fileExists(atPath: datasetsRoot + "/manifest.csv")
    }

    /// Why a dataset test was skipped.
    public static let datasetsMissingReason =
        "datasets folder not found (set MOTIONBATCH_DATASETS or place it at ../shared/datasets)"

    /// Writes `text` as `name` in a new scratch folder and returns the file's path.
    public static func scratchFile(_ text: String, name: String = "rec.csv", prefix: String = "motionbatch-tests") throws -> String {
        let url = try makeScratchDirectory(prefix: prefix).appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// A new, empty folder below the system's temporary directory, named `<prefix>-<UUID>`. It is
    /// removed, with everything in it, when the test process exits normally (CI runs on a shared
    /// machine: nothing a test wrote stays in /tmp).
    public static func makeScratchDirectory(prefix: String = "motionbatch-tests") throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        ScratchCleanup.add(dir.path)
        return dir
    }
}

/// The scratch folders made by this process, removed at its exit (`atexit`, registered with the
/// first one).
enum ScratchCleanup {
    private static let paths = Mutex<[String]?>(nil)

    static func add(_ path: String) {
        paths.withLock { list in
            if list == nil {
                list = []
                atexit { ScratchCleanup.removeAll() }
            }
            list?.append(path)
        }
    }

    /// Removes every folder added (what cannot be removed stays; nothing is reported at exit).
    static func removeAll() {
        let all = paths.withLock { list -> [String] in
            defer { list = [] }
            return list ?? []
        }
        for path in all {
            _ = chmodTree(path)
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Makes `path` and the folders below it writable and searchable by their owner (tests make
    /// some read-only to provoke errors), so the removal works without root too. Symbolic links
    /// are not followed (`lstat`): only real folders inside the scratch folder are changed.
    private static func chmodTree(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return false }
        _ = chmod(path, 0o700)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            _ = chmodTree(path + "/" + name)
        }
        return true
    }
}
