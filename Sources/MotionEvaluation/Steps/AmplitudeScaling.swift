import MotionCore

/// The robustness experiment of `eval steps --amplitude-scale K`: every acceleration `a` of a
/// recording replaced by `mean + K · (a − mean)` (mean = the recording's mean acceleration vector,
/// about gravity), so the motion is made gentler (K < 1) or rougher (K > 1) while gravity stays.
public struct AmplitudeScaling: Sendable {
    /// The recording's mean acceleration, m/s².
    public let mean: Vector3
    /// K.
    public let scale: Double

    /// A scaling about `mean`.
    public init(mean: Vector3, scale: Double) {
        self.mean = mean
        self.scale = scale
    }

    /// Scales the accelerations of `samples` in place (nothing changes when K is 1).
    public func apply(to samples: inout [Sample]) {
        guard scale != 1 else { return }
        let m = mean, k = scale
        for i in samples.indices {
            let a = samples[i].accel
            samples[i].accel = Vector3(m.x + k * (a.x - m.x), m.y + k * (a.y - m.y), m.z + k * (a.z - m.z))
        }
    }
}
