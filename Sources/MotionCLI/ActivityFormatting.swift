import MotionAnalysis
import MotionCore

/// The activity timeline as JSON and text, shared by `replay`, `activity` and `capture`. Times in
/// seconds on the recording's own clock (`timestamp_ns / 1e9`).
enum ActivityFormatting {
    /// `[{start_s, end_s, label, confidence, announced_s}]`.
    static func segmentsJSON(_ t: ActivityTimeline) -> JSONValue {
        .array(t.segments.map { s in
            .object([
                ("start_s", .number(Double(s.start) / 1e9)),
                ("end_s", .number(Double(s.end) / 1e9)),
                ("label", .string(s.label.rawValue)),
                ("confidence", .number((s.confidence * 10).rounded() / 10)),
                ("announced_s", .number(Double(s.announced) / 1e9)),
            ])
        })
    }

    /// `{still, walking, running, cycling, vehicle, unknown}`: seconds per class, all present.
    static func timeJSON(_ t: ActivityTimeline) -> JSONValue {
        .object(t.secondsPerClass.map { ($0.0.rawValue, .number($0.1)) })
    }

    /// One line per segment: `  12.000-  47.000 s  walking   conf  84  (announced at 15.000 s)`.
    static func segmentLines(_ t: ActivityTimeline) -> [String] {
        t.segments.map { s in
            pad(formatFixed(Double(s.start) / 1e9, 3), 10) + " - " + pad(formatFixed(Double(s.end) / 1e9, 3), 10) + " s  "
                + s.label.rawValue.padding(9) + " confidence " + pad(formatFixed(s.confidence, 0), 3)
                + "  (announced at \(formatFixed(Double(s.announced) / 1e9, 3)) s)"
        }
    }

    /// `still 12.0 s, walking 30.5 s, ...`.
    static func timeLine(_ t: ActivityTimeline) -> String {
        t.secondsPerClass.map { "\($0.0.rawValue) \(formatFixed($0.1, 1)) s" }.joined(separator: ", ")
    }

    private static func pad(_ s: String, _ w: Int) -> String { s.count >= w ? s : String(repeating: " ", count: w - s.count) + s }
}

extension String {
    /// Left-aligned in `width` columns (never cut).
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
