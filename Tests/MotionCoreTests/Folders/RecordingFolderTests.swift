import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// The folder rule (docs/dialects.md, "Folders"; issue 25, case 6).
struct RecordingFolderTests {
    static let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/walk").path
    static let recordings = TestPaths.packageRoot.appendingPathComponent("Recordings").path

    /// 13 recordings, a Sensor Logger export folder, a phyphox zip, unknown and hidden files, a
    /// sub-folder with two exports and one more recording, a symlink loop and a link to a file.
    static func tree() throws -> String {
        let root = try TestPaths.makeScratchDirectory().appendingPathComponent("walks").path
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/sub/two", withIntermediateDirectories: true)
        for i in 0..<13 { try fm.copyItem(atPath: recordings + "/hapt-user01-walking.csv", toPath: root + String(format: "/walk-%02d.csv", i)) }
        try fm.copyItem(atPath: fixtures + "/sensor-logger-ios", toPath: root + "/ios-export")
        try fm.copyItem(atPath: fixtures + "/phyphox.zip", toPath: root + "/phyphox.zip")
        try Data("not a recording\n".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        try fm.copyItem(atPath: recordings + "/hapt-user03-stairs.csv", toPath: root + "/.hidden.csv")
        try fm.copyItem(atPath: fixtures + "/sensor-logger-ios", toPath: root + "/sub/two/e1")
        try fm.copyItem(atPath: fixtures + "/sensor-logger-ios", toPath: root + "/sub/two/e2")
        try fm.copyItem(atPath: fixtures + "/bangle-accellog.csv.gz", toPath: root + "/sub/bangle.csv.gz")
        try fm.createSymbolicLink(atPath: root + "/sub/loop", withDestinationPath: root)
        try fm.createSymbolicLink(atPath: root + "/sub/walk-link.csv", withDestinationPath: root + "/walk-00.csv")
        return root
    }

    @Test func aPlainFolderIsEachRecordingInsideInByteOrder() throws {
        let root = try Self.tree()
        #expect(!RecordingFolder.isExport(root), "a folder holding an export is not one")
        let listing = try RecordingFolder.list(root, recursive: false)
        let names = listing.recordings.map { String($0.dropFirst(root.count + 1)) }
        #expect(names == ["ios-export", "phyphox.zip"] + (0..<13).map { String(format: "walk-%02d.csv", $0) })
        #expect(listing.skipped == ["notes.txt (not a recording MotionBatch recognises)", "sub/ (a folder: --recursive searches it)"])
    }

    @Test func recursiveSearchesSubFoldersFollowingLinksOnce() throws {
        let root = try Self.tree()
        let listing = try RecordingFolder.list(root, recursive: true)
        let names = listing.recordings.map { String($0.dropFirst(root.count + 1)) }
        // The loop back to the root leads to what was already visited; walk-00.csv is taken by its
        // own path, not through sub/walk-link.csv.
        #expect(names == ["ios-export", "phyphox.zip", "sub/bangle.csv.gz", "sub/two/e1", "sub/two/e2"] + (0..<13).map { String(format: "walk-%02d.csv", $0) })
        #expect(listing.skipped == ["notes.txt (not a recording MotionBatch recognises)"])
    }

    @Test func exportsAreOneRecordingAndTwoExportsTwo() throws {
        let root = try Self.tree()
        #expect(RecordingFolder.isExport(root + "/ios-export"))
        #expect(!RecordingFolder.isExport(root + "/sub/two"))
        #expect(try RecordingFolder.list(root + "/sub/two", recursive: false).recordings == [root + "/sub/two/e1", root + "/sub/two/e2"])
    }

    @Test func aForcedDialectTakesEveryFile() throws {
        let root = try Self.tree()
        let listing = try RecordingFolder.list(root, recursive: false, anyFile: true)
        #expect(listing.recordings.contains(root + "/notes.txt"))
        #expect(!listing.recordings.contains(root + "/.hidden.csv"))
    }
}
