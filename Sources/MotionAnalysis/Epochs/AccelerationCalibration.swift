/// A per-axis offset and scale that brings an accelerometer's still readings onto the 1 g sphere,
/// fitted as GGIR's auto-calibration does (van Hees et al. 2014): from the means of 10-second
/// windows in which the device was still (every axis's standard deviation below 13 mg), an
/// iteratively re-weighted least-squares fit of `(raw + offset) × scale` to each mean's closest point
/// on the unit sphere. It is applied only when the still windows cover the sphere (on every axis a
/// mean below −0.3 g and one above +0.3 g) and the fit brings the mean error |‖a‖ − 1 g| below 10 mg;
/// otherwise ``reason`` says why not and the data are used as recorded.
public struct AccelerationCalibration: Sendable, Equatable {
    /// Added to each axis before scaling, g.
    public var offset: [Double] = [0, 0, 0]
    /// Each axis's scale.
    public var scale: [Double] = [1, 1, 1]
    /// Still windows the fit used.
    public var windows = 0
    /// Mean |‖a‖ − 1 g| over the still windows before and after, g.
    public var errorBefore = 0.0
    /// See ``errorBefore``.
    public var errorAfter = 0.0
    /// Why the calibration is not applied (nil when it is).
    public var reason: String?

    /// Whether it is applied.
    public var isApplied: Bool { reason == nil }

    /// The identity (nothing applied), with the reason.
    public init(reason: String?) { self.reason = reason }

    /// Most mean error after the fit for the calibration to be applied, g (GGIR's 10 mg).
    public static let acceptedError = 0.01
    /// Each axis needs still means beyond ±this, g (GGIR's 0.3 g sphere criterion).
    public static let sphereSpread = 0.3
    /// Fewest still windows.
    public static let minimumWindows = 10

    /// Fits the calibration to still windows' means (g).
    /// - Complexity: O(windows × iterations), at most 1000 iterations.
    public static func fit(_ means: [(Double, Double, Double)]) -> AccelerationCalibration {
        let v = means.map { [$0.0, $0.1, $0.2] }
        guard v.count >= minimumWindows else {
            return AccelerationCalibration(reason: "\(v.count) still 10 s windows, fewer than \(minimumWindows)")
        }
        for k in 0..<3 {
            let values = v.map { $0[k] }
            if !(values.min()! < -sphereSpread && values.max()! > sphereSpread) {
                return AccelerationCalibration(reason: "the still windows do not cover the sphere (axis \(["x", "y", "z"][k]) never beyond ±\(sphereSpread) g on both sides)")
            }
        }
        func error(_ offset: [Double], _ scale: [Double]) -> Double {
            var sum = 0.0
            for p in v {
                let a = (0..<3).map { (p[$0] + offset[$0]) * scale[$0] }
                sum += abs((a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).squareRoot() - 1)
            }
            return sum / Double(v.count)
        }
        var offset = [0.0, 0.0, 0.0], scale = [1.0, 1.0, 1.0]
        var weights = [Double](repeating: 1, count: v.count)
        var previous = Double.infinity
        for _ in 0..<1000 {
            // The calibrated points and their closest points on the sphere.
            let current = v.map { p in (0..<3).map { (p[$0] + offset[$0]) * scale[$0] } }
            let closest = current.map { c -> [Double] in
                let n = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).squareRoot()
                return n > 0 ? c.map { $0 / n } : c
            }
            var fitted = current
            for k in 0..<3 {
                // Weighted least squares closest[k] ≈ b + a × current[k].
                var sw = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
                for i in v.indices {
                    let w = weights[i], x = current[i][k], y = closest[i][k]
                    sw += w; sx += w * x; sy += w * y; sxx += w * x * x; sxy += w * x * y
                }
                let det = sw * sxx - sx * sx
                guard det > 0 else { return AccelerationCalibration(reason: "the still windows do not determine axis \(["x", "y", "z"][k])") }
                let a = (sw * sxy - sx * sy) / det
                let b = (sy - a * sx) / sw
                guard a.isFinite, b.isFinite, a > 0 else { return AccelerationCalibration(reason: "the fit diverged") }
                // (raw + offset) × scale × a + b = (raw + offset + b / (scale × a)) × scale × a.
                offset[k] += b / (scale[k] * a)
                scale[k] *= a
                for i in v.indices { fitted[i][k] = current[i][k] * a + b }
            }
            var residual = 0.0
            for i in v.indices {
                var d2 = 0.0
                for k in 0..<3 { d2 += (fitted[i][k] - closest[i][k]) * (fitted[i][k] - closest[i][k]) }
                residual += d2
                weights[i] = min(1 / max(d2.squareRoot(), 1e-12), 100)
            }
            residual /= Double(v.count)
            if abs(previous - residual) < 1e-12 { break }
            previous = residual
        }
        var c = AccelerationCalibration(reason: nil)
        c.offset = offset
        c.scale = scale
        c.windows = v.count
        c.errorBefore = error([0, 0, 0], [1, 1, 1])
        c.errorAfter = error(offset, scale)
        guard offset.allSatisfy(\.isFinite), scale.allSatisfy({ $0.isFinite && $0 > 0.5 && $0 < 2 }) else {
            return AccelerationCalibration(reason: "the fit diverged (offsets \(offset), scales \(scale))")
        }
        if c.errorAfter >= acceptedError {
            let after = c.errorAfter
            c = AccelerationCalibration(reason: "the fit leaves a mean error of \((after * 1000).rounded()) mg, not below \(Int(acceptedError * 1000)) mg")
        }
        return c
    }
}
