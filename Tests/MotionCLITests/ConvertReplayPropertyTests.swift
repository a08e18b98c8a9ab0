import Foundation
import Testing
import MotionTestSupport
@testable import MotionCLI
import MotionCore

/// A random valid recording, written as text by the test itself (not by MotionBatch's writer), in
/// either dialect, with the freedoms the grammar allows: signs, exponents, leading and trailing
/// zeros, CRLF line ends, a byte-order mark, labels or not, gyro or not, timestamps anywhere in
/// the accepted range, values up to the limit.
struct RandomRecording {
    var text: String
    var plain: Bool

    init(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        plain = rng.next() % 2 == 0
        let gyro = rng.next() % 2 == 0
        let labels = rng.next() % 3 == 0
        let crlf = rng.next() % 5 == 0
        let nl = crlf ? "\r\n" : "\n"
        var s = rng.next() % 7 == 0 ? "\u{FEFF}" : ""
        if !plain {
            s += "# motionbatch-recording: 1" + nl
            if rng.next() % 2 == 0 { s += "# actual_hz: \(pick(["50", "104.17", "0.001", "1000000", "1e2"]))" + nl }
            if rng.next() % 2 == 0 { s += "# device: phone ±☃" + nl }
        }
        var columns = [plain ? "time_s" : "timestamp_ns", "accel_x", "accel_y", "accel_z"]
        if gyro { columns += ["gyro_x", "gyro_y", "gyro_z"] }
        if labels { columns.append("label") }
        s += columns.joined(separator: ",") + nl
        let limit = InputLimits.timestampLimit
        // Start anywhere in the range, leaving room for the rows.
        var t = pick([Int64(0), -limit, limit - 200_000_000_000, Int64(rng.next() % 4_000_000_000_000_000_000), -Int64(rng.next() % 1_000_000_000_000)])
        let period = pick([Int64(1), 1000, 9_999_999, 20_000_000, 123_456_789])
        func value() -> String {
            let v = (Double(rng.next() % 2_000_001) - 1_000_000) / pick([1, 10, 1000, 1e6, 1e9])
            switch rng.next() % 5 {
            case 0: return String(format: "%.3e", v)
            case 1: return (v >= 0 ? "+" : "") + v.description
            case 2: return String(format: "%.9f", v)
            default: return v.description
            }
        }
        let rows = 1 + Int(rng.next() % 400)
        for _ in 0..<rows {
            var fields = [plain ? Self.seconds(t, zeros: rng.next() % 2 == 0) : String(t)]
            for _ in 0..<(gyro ? 6 : 3) { fields.append(value()) }
            if labels { fields.append(pick(["", "walking", "sit ting", "Treppe ↑"])) }
            s += fields.joined(separator: ",") + nl
            t += period + Int64(rng.next() % UInt64(period))
        }
        text = s
    }

    /// `ns` as decimal seconds, exactly (optionally with trailing zeros).
    static func seconds(_ ns: Int64, zeros: Bool) -> String {
        let sign = ns < 0 ? "-" : ""
        let m = ns.magnitude
        let fraction = String(m % 1_000_000_000)
        var f = String(repeating: "0", count: 9 - fraction.count) + fraction
        if !zeros { while f.hasSuffix("0") { f.removeLast() } }
        return sign + String(m / 1_000_000_000) + (f.isEmpty ? "" : "." + f)
    }
}

/// Issue 13: for random valid recordings, `convert` then `replay` gives the same samples and the
/// same results (in both output formats), and what `convert` writes reads back without a warning.
@Suite struct ConvertReplayPropertyTests {
    /// `replay --json`'s members, without those that name the file and its format; without the
    /// declared rate and what depends on it (`gaps`) when `declaredRateKept` is false: plain CSV has
    /// no header to carry it (convert warns that the header entries are not written).
    static func results(_ path: String, declaredRateKept: Bool = true) throws -> [String: String] {
        let r = runCLI(["replay", path, "--json", "--batch", "7"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        var out: [String: String] = [:]
        for (k, v) in object where !["file", "format"].contains(k) && (declaredRateKept || !["declared_rate_hz", "gaps"].contains(k)) {
            // Warnings (the plausibility rule's, on random values) name the file and its lines
            // (convert adds a header line): compare the rest; the rate's against a declared rate
            // only when it is kept.
            let value = k == "warnings" ? ((v as? [[String: Any]]) ?? [])
                .filter { declaredRateKept || ($0["kind"] as? String) != "implausible-rate" }
                .map { $0.filter { !["file", "first_lines"].contains($0.key) } } : v
            out[k] = String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
        }
        return out
    }

    @Test(arguments: 0..<40)
    func convertThenReplayKeepsSamplesAndResults(seed: Int) throws {
        let recording = RandomRecording(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15)
        let dir = try TestPaths.makeScratchDirectory().path
        try recording.text.write(toFile: dir + "/in.csv", atomically: false, encoding: .utf8)
        let original = try Recording.read(path: dir + "/in.csv")
        let declared = original.header.declaredRate != nil
        #expect(runCLI(["replay", dir + "/in.csv"]).code == 0)
        for format in ["motionbatch", "plain"] {
            let out = dir + "/out-\(format).csv"
            let c = runCLI(["convert", dir + "/in.csv", out, "--format", format])
            #expect(c.code == 0, "\(c.err)")
            let back = try Recording.read(path: out)
            #expect(back.samples == original.samples, "seed \(seed), \(format)")
            #expect(back.labels == original.labels)
            #expect(back.warnings.isEmpty)
            let kept = format == "motionbatch" || !declared
            #expect(try Self.results(out, declaredRateKept: kept) == (try Self.results(dir + "/in.csv", declaredRateKept: kept)),
                    "seed \(seed), \(format): replay results differ")
        }
    }
}
