import Foundation
import MotionTestSupport
import Testing

/// `capture benchmark`'s allocations per wake-up of the capture's whole path (docs/iio-reader.md,
/// "Batch 1, third round"), counted by the alloc-count shim (scripts/alloc-count/alloc-count.c),
/// built here with gcc into a scratch folder and loaded with LD_PRELOAD into the benchmark.
///
/// The steady state allocates nothing only in an optimised build: a debug build calls the
/// standard library's generic code unspecialised, which allocates (a coroutine frame per
/// element of an array iterated, for one). So the zero-allocation check runs the release
/// binary (`swift build -c release --product motionbatch`, which scripts/test.sh builds first),
/// or `$MOTIONBATCH_OPTIMIZED_BINARY`, when it is newer than every source file; the debug binary
/// checks that the counts reach the JSON (and that they are null without the shim).
@Suite("capture benchmark allocations", .serialized)
struct CaptureAllocationTests {
    /// The shim, built once per test run (nil without gcc).
    static let shim: String? = {
        guard let gcc = executable("gcc") else { return nil }
        guard let dir = try? TestPaths.makeScratchDirectory(prefix: "motionbatch-alloc-count") else { return nil }
        let out = dir.appendingPathComponent("alloc-count.so").path
        let source = TestPaths.packageRoot.appendingPathComponent("scripts/alloc-count/alloc-count.c").path
        let r = run([gcc, "-O2", "-Wall", "-shared", "-fPIC", "-o", out, source])
        return r.status == 0 ? out : nil
    }()

    static var gccMissing: Bool { executable("gcc") == nil }

    /// The optimised motionbatch when it is at least as new as the sources, else nil.
    static let optimizedBinary: String? = {
        let env = ProcessInfo.processInfo.environment["MOTIONBATCH_OPTIMIZED_BINARY"]
        let path = env ?? TestPaths.packageRoot.appendingPathComponent(".build/release/motionbatch").path
        guard let built = modified(path) else { return nil }
        if env != nil { return path }
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        let newest = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: [.contentModificationDateKey])?
            .compactMap { ($0 as? URL).flatMap { modified($0.path) } }.max()
        let upToDate = newest.map { $0 <= built } ?? true
        return upToDate ? path : nil
    }()

    /// Per batch size: wake-ups measured, allocations in them, allocations per wake-up (nil: not counted).
    struct Measurement {
        var batch: Int
        var wakeups: Int
        var allocations: Int?
        var perWakeup: Double?
        var steps: Int?
        var shimLoaded: Bool
    }

    /// Runs `binary capture benchmark --json` with `arguments`, the shim preloaded when given.
    static func benchmark(_ binary: String, preload: String?, _ arguments: [String]) throws -> [Measurement] {
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        if let preload { env["LD_PRELOAD"] = preload } else { env.removeValue(forKey: "LD_PRELOAD") }
        let r = run([binary, "capture", "benchmark", "--json"] + arguments, environment: env)
        try #require(r.status == 0, "capture benchmark failed: \(r.err)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let loaded = try #require(o["shim_loaded"] as? Bool)
        let results = try #require(o["results"] as? [[String: Any]])
        return try results.map { x in
            Measurement(batch: try #require(x["batch"] as? Int), wakeups: try #require(x["wakeups"] as? Int),
                        allocations: x["allocations"] as? Int, perWakeup: x["allocations_per_wakeup"] as? Double,
                        steps: x["steps"] as? Int, shimLoaded: loaded)
        }
    }

    /// The whole path's steady state, at batch 1 (20,000 wake-ups measured) and batch 100 (500),
    /// allocates nothing but the geometric growth of the session's per-step histories (the step
    /// times, their delays, the activity gate's hold times: 7 and 10 allocations in these windows
    /// when this was written): at most 20 in a window, where one allocation per wake-up (20,000 or
    /// 500), or one per second of samples at batch 1 (200), fails.
    @Test(.enabled(if: !gccMissing, "gcc is needed to build the alloc-count shim"),
          .enabled(if: optimizedBinary != nil, "no optimised binary as new as the sources: swift build -c release --product motionbatch"))
    func steadyStateWakeUpsAllocateNothing() throws {
        let shim = try #require(Self.shim, "the shim did not build")
        let binary = try #require(Self.optimizedBinary)
        let one = try Self.benchmark(binary, preload: shim, ["--batch", "1", "--samples", "20000"])
        let hundred = try Self.benchmark(binary, preload: shim, ["--batch", "100", "--samples", "50000"])
        for m in one + hundred {
            #expect(m.shimLoaded)
            let allocations = try #require(m.allocations, "allocations not counted at batch \(m.batch)")
            #expect(allocations <= 20, "batch \(m.batch): \(allocations) allocations in \(m.wakeups) steady-state wake-ups")
            #expect((m.steps ?? 0) > 0, "the analysis ran")
        }
        #expect(one.first?.wakeups == 20000 && hundred.first?.wakeups == 500)
    }

    /// The counts reach the JSON when the shim is loaded (any build), and are null without it.
    @Test(.enabled(if: !gccMissing, "gcc is needed to build the alloc-count shim"))
    func countsAreReportedWithTheShimAndNullWithout() throws {
        let shim = try #require(Self.shim, "the shim did not build")
        let arguments = ["--batch", "1,100", "--samples", "400", "--warmup", "200"]
        let with = try Self.benchmark(TestProcess.motionbatch, preload: shim, arguments)
        #expect(with.map(\.batch) == [1, 100])
        for m in with {
            #expect(m.shimLoaded && m.allocations != nil && m.perWakeup != nil)
            #expect(m.wakeups == (m.batch == 1 ? 400 : 4))
        }
        let without = try Self.benchmark(TestProcess.motionbatch, preload: nil, arguments)
        for m in without { #expect(!m.shimLoaded && m.allocations == nil && m.perWakeup == nil) }
    }

    // MARK: helpers

    static func executable(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: arguments[0])
        p.arguments = Array(arguments.dropFirst())
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch { return (-1, "", "\(error)") }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
