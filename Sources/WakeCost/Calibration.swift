/// Per-wake and per-sample CPU costs derived from two captures of the same stream, one
/// delivered per sample and one batched.
///
/// Model: process CPU time = a × userspace returns + b × samples. Two captures give two
/// equations; the solution is exact when their returns-per-sample differ.
/// With a hardware-FIFO batched capture (one scheduler wake-up per return) `a` is the cost of
/// a wake-up that returns to userspace and `b` the per-sample cost. With a software-watermark
/// capture the per-sample scheduler wake-ups are folded into `b` (``warnings`` says so).
public struct Calibration: Hashable, Sendable {
    /// CPU seconds per wake-up that returns to userspace (→ `userspace_return_s`).
    public var perWakeS: Double
    /// CPU seconds per sample (→ `per_sample_s`).
    public var perSampleS: Double
    /// Caveats about the captures.
    public var warnings: [String]

    /// Solves for the per-wake and per-sample costs.
    /// - Throws: ``WakeCostError`` when the captures cannot separate the two costs (same
    ///   returns per sample) or give a negative cost (noise larger than the effect).
    public static func derive(perSample p: CaptureStats, batched q: CaptureStats) throws(WakeCostError) -> Calibration {
        let r1 = Double(p.userspaceReturns), n1 = Double(p.samples), c1 = p.cpuTimeS
        let r2 = Double(q.userspaceReturns), n2 = Double(q.samples), c2 = q.cpuTimeS
        let det = r1 * n2 - r2 * n1
        guard abs(det) > 1e-9 * max(1, r1 * n2) else {
            throw WakeCostError(file: "<captures>", problem: "the two captures have the same userspace returns per sample (\(r1)/\(n1) vs \(r2)/\(n2)); one must be per-sample and one batched")
        }
        let a = (c1 * n2 - c2 * n1) / det
        let b = (r1 * c2 - r2 * c1) / det
        guard a >= 0 else {
            throw WakeCostError(file: "<captures>", problem: "derived per-wake cost is negative (\(a) s): the batched capture costs more CPU per return than the per-sample one; recapture over a longer duration")
        }
        guard b >= 0 else {
            throw WakeCostError(file: "<captures>", problem: "derived per-sample cost is negative (\(b) s): CPU time does not grow with samples in these captures; recapture over a longer duration")
        }
        var warnings: [String] = []
        if r1 < 0.9 * n1 { warnings.append("the per-sample capture returned to userspace \(p.userspaceReturns) times for \(p.samples) samples; expected about one return per sample") }
        if Double(q.voluntaryContextSwitches) > 2 * max(1, r2) {
            warnings.append("the batched capture had \(q.voluntaryContextSwitches) voluntary context switches for \(q.userspaceReturns) returns (software watermark or blocking reads): its per-sample scheduler wake-ups are folded into per_sample_s")
        }
        return Calibration(perWakeS: a, perSampleS: b, warnings: warnings)
    }

    /// `board` with the calibrated costs in place of its `userspace_return_s` and `per_sample_s`.
    public func applied(to board: BoardProfile) -> BoardProfile {
        var b = board
        b.userspaceReturnS = perWakeS
        b.perSampleS = perSampleS
        return b
    }

    /// The complete profile `base` with the calibrated costs in place, named `<base>-calibrated`,
    /// and where every value comes from (for the profile file's `sources`): the two calibrated
    /// keys from `captures` (the capture files, in words), every other key from `base`.
    public func profile(base: BoardProfile, captures: String) -> (profile: BoardProfile, sources: [(String, String)]) {
        var p = applied(to: base)
        p.name = base.name.hasSuffix("-calibrated") ? base.name : base.name + "-calibrated"
        p.description = (base.description.isEmpty ? base.name : base.description) + "; CPU costs calibrated from " + captures
        var sources: [(String, String)] = []
        for (key, _) in p.parameters {
            switch key {
            case "userspace_return_s":
                sources.append((key, "calibrated: a in cpu_time_s = a × userspace_returns + b × samples, solved through \(captures)"))
            case "per_sample_s":
                sources.append((key, "calibrated: b in cpu_time_s = a × userspace_returns + b × samples, solved through \(captures)"))
            default:
                sources.append((key, "from the base profile \(base.name)"))
            }
        }
        if !warnings.isEmpty { sources.append(("calibration_warnings", warnings.joined(separator: "; "))) }
        return (p, sources)
    }
}
