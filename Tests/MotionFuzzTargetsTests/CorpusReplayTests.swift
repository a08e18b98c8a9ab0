import Foundation
import Testing
import MotionCore
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

    /// Every dialect has seeds in the reader's corpus that it reads without an error (so the
    /// fuzzer starts inside each dialect, not at its first refusal): `seed-<dialect>...`, read
    /// as the target reads them (iio and columns with the target's fixed options).
    @Test(arguments: ["phyphox", "sensor-logger", "bangle", "iio", "columns", "plain", "motionbatch", "actilife", "gt3x", "cwa"])
    func everyDialectHasSeedsItReads(dialect: String) throws {
        let prefix = ["motionbatch": "seed-own", "columns": "seed-columns"][dialect] ?? "seed-\(dialect)"
        let seeds = try Self.corpus("recording-reader").filter { $0.lastPathComponent.hasPrefix(prefix) }
        #expect(!seeds.isEmpty)
        for seed in seeds {
            let data = [UInt8](try Data(contentsOf: seed))
            let forced = ["iio": (RecordingDialects.named("iio"), RecordingDialectOptions(scanLayout: FuzzTargets.fuzzLayout)),
                          "columns": (RecordingDialects.named("columns"), FuzzTargets.fuzzColumns)][dialect]
            let r = FuzzTargets.readAll(data, dialect: forced?.0, options: forced?.1 ?? RecordingDialectOptions(), bufferSize: 1 << 20, threads: 1, chunk: 4096)
            #expect(r.error == nil && r.dialect == dialect && !r.samples.isEmpty, "\(seed.lastPathComponent): \(r.error ?? r.dialect ?? "")")
        }
    }
}
