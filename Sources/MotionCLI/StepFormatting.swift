import MotionAnalysis
import MotionCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Number and JSON-string formatting for the step commands (no Foundation): wraps `snprintf`.
enum StepFormatting {
    /// `x` with `digits` decimals (`%.*f`); "-0.0" becomes "0.0".
    static func fixed(_ x: Double, _ digits: Int) -> String {
        var buf = [CChar](repeating: 0, count: 64)
        _ = withVaList([Int32(digits), x]) { vsnprintf(&buf, 64, "%.*f", $0) }
        let s = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return s.hasPrefix("-") && s.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) ? String(s.dropFirst()) : s
    }

    /// A JSON number with up to 6 significant digits (`%.6g`), or `null` when not finite.
    static func jsonNumber(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        var buf = [CChar](repeating: 0, count: 64)
        _ = withVaList([x]) { vsnprintf(&buf, 64, "%.6g", $0) }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A JSON string literal (see ``JSONValue/quoted(_:)``).
    static func jsonString(_ s: String) -> String { JSONValue.quoted(s) }
}

extension StepFormatting {
    /// `--no-inferred-steps`: keep the counted steps only (docs/step-counter.md, "Inferred steps").
    static let noInferredOption = OptionSpec.flag("no-inferred-steps", help: "Infer no step in the counter's silences during gait ('inferred_steps' is then null).")

    /// The inferred-step members of a `--json` object: `inferred_steps` (count, null when not
    /// inferred) and `inferred_stretches` ([{"start_s", "end_s", "period_s", "steps"}]: each filled
    /// silence between two counted steps, times on the recording's clock).
    static func inferredMembers(_ summary: StepSummary) -> [(String, JSONValue)] {
        let count: JSONValue = summary.inferred.map { JSONValue.number($0.count) } ?? .null
        var stretches: [JSONValue] = []
        for s in summary.inferred?.stretches ?? [] {
            let members: [(String, JSONValue)] = [("start_s", .number(Double(s.start) / 1e9)), ("end_s", .number(Double(s.end) / 1e9)),
                                                  ("period_s", .number(Double(s.period) / 1e9)), ("steps", .number(s.times.count))]
            stretches.append(.object(members))
        }
        return [("inferred_steps", count), ("inferred_stretches", .array(stretches))]
    }

    /// ", N inferred" for a text line when steps were inferred, else "".
    static func inferredSuffix(_ summary: StepSummary) -> String {
        guard let n = summary.inferred?.count, n > 0 else { return "" }
        return " (+\(n) inferred)"
    }
}
