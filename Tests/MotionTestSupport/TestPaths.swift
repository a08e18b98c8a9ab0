import Foundation

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

    /// A new, empty folder below the system's temporary directory, named `<prefix>-<UUID>`.
    public static func makeScratchDirectory(prefix: String = "motionbatch-tests") throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
