import Foundation
import Testing
import MotionTestSupport
@testable import MotionFuzzTargets

/// The committed fuzz corpus (`Fuzz/Corpus/<target>/`), replayed through the same target bodies
/// the libFuzzer executables run, without sanitizers: every input that ever crashed (and is kept
/// there as a regression entry) must now run through. A broken invariant stops the test process.
@Suite struct CorpusReplayTests {
    static let corpusRoot = TestPaths.packageRoot.appendingPathComponent("Fuzz/Corpus")

    /// The corpus files of `target`, sorted.
    static func corpus(_ target: String) throws -> [URL] {
        let dir = corpusRoot.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil).sorted { $0.path < $1.path }
    }

    @Test(arguments: FuzzTargets.all.map(\.name))
    func everyCorpusEntryRunsThrough(target name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let files = try Self.corpus(name)
        #expect(files.count >= 5, "corpus of \(name) has \(files.count) entries")
        for file in files {
            target.run([UInt8](try Data(contentsOf: file)))
        }
    }
}
