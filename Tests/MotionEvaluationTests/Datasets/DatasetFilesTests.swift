import MotionCore
@testable import MotionEvaluation
import MotionTestSupport
import Testing

/// The datasets folder's own files: the manifest and the per-step truth. Bad input is an error
/// naming file, line, column and problem, with unprintable characters escaped.
struct DatasetFilesTests {
    static func folder(manifest: String) throws -> String {
        let path = try TestPaths.scratchFile(manifest, name: "manifest.csv")
        return String(path.dropLast("/manifest.csv".count))
    }

    @Test func manifestRowsAreReadByColumnName() throws {
        let dir = try Self.folder(manifest: "path,activity,steps_true\r\nsteps/a.csv,walking,120\n\nsteps/b.csv,still,\n")
        let m = try DatasetManifest(directory: dir)
        #expect(m.columns == ["path", "activity", "steps_true"])
        #expect(m.entries.map(\.path) == ["steps/a.csv", "steps/b.csv"])
        #expect(m.entries.map(\.line) == [2, 4])
        #expect(try m.entries[0].integer("steps_true") == 120 && m.entries[1].integer("steps_true") == nil)
        #expect(m.entries[0]["activity"] == "walking" && m.entries[0]["nothing"] == nil)
    }

    @Test(arguments: [
        ("", "manifest.csv: empty file"),
        ("name,activity\nx,y\n", "manifest.csv:1: column 1: expected the first column to be 'path', found \"name\""),
        ("path,activity,steps_true\nsteps/a.csv,walking\n", "manifest.csv:2: expected 3 fields (path,activity,steps_true), found 2"),
        ("path,activity,steps_true\n,walking,3\n", "manifest.csv:2: column 1 (path): empty path"),
        ("path,activity,steps_true\nsteps/a.csv,walking,12\u{1}\n", "manifest.csv:2: column 3 (steps_true): \"12\\u0001\" is not an integer"),
        ("path,activity,steps_true\nsteps/a.csv,walking,\n", "manifest.csv:2: column 3 (steps_true): empty, expected an integer"),
        ("path,steps_true\nsteps/a.csv,3\n", "manifest.csv:1: missing column 'activity'"),
    ])
    func badManifestsAreNamedByLineAndColumn(text: String, message: String) throws {
        let dir = try Self.folder(manifest: text)
        #expect {
            _ = try StepCorpus.load(directory: dir)
        } throws: { error in
            "\(error)".hasPrefix(dir + "/" + message)
        }
    }

    @Test func aManifestWithoutStepSetsIsRefused() throws {
        let dir = try Self.folder(manifest: "path,activity,steps_true\nactivity/x.csv,walking,\n")
        #expect {
            _ = try StepCorpus.load(directory: dir)
        } throws: { error in
            "\(error)".contains("no recordings for set(s) oxford, bangle_walks, non_walking")
        }
    }

    @Test func stepTruthIsReadInNanoseconds() throws {
        let path = try TestPaths.scratchFile("time_s\n0.5\n1.25\n\n", name: "walk.steps.csv")
        #expect(try StepTruth.read(path) == [500_000_000, 1_250_000_000])
        #expect(StepTruth.path(forRecording: "a/walk.csv") == "a/walk.steps.csv")
    }

    @Test(arguments: [
        ("", ":1: expected header 'time_s', found \"\""),
        ("t\n1\n", ":1: expected header 'time_s', found \"t\""),
        ("time_s\n1\nnan\n", ":3: column 1 (time_s): \"nan\" is not a time in seconds"),
        ("time_s\n1e300\n", ":2: column 1 (time_s): \"1e300\" is not a time in seconds"),
    ])
    func badTruthFilesAreNamedByLine(text: String, message: String) throws {
        let path = try TestPaths.scratchFile(text, name: "walk.steps.csv")
        #expect {
            _ = try StepTruth.read(path)
        } throws: { error in
            "\(error)" == path + message
        }
    }

    @Test func aMissingFileIsNamed() {
        #expect {
            _ = try DatasetManifest(directory: "/nonexistent-folder")
        } throws: { error in
            "\(error)".contains("/nonexistent-folder/manifest.csv")
        }
    }
}
