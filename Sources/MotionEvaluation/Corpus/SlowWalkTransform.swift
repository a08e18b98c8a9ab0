import MotionCore

/// The slow and gentle walking check of issue 17: a real walk as it would look in daily life.
/// Its clock is stretched by ``stretch`` about the first sample (cadence divided by it) and its
/// motion (acceleration minus the recording's mean vector) scaled by ``motionScale``.
///
/// Both from one published comparison of the same people walking in a test and in daily life
/// (Urbanek et al. 2018, J Gerontol A 73:676): cadence in the test 20 % higher (so ×1/1.25 here)
/// and walking acceleration 96 % higher (×1/1.96 = 0.51). It brings the Oxford walks (83–133
/// steps/min by their foot switches) to 66–106 steps/min, around the slow-walking range of adults
/// (70–90 steps/min; below 100 steps/min walking is slow or incidental, Tudor-Locke et al. 2018,
/// Br J Sports Med 52:776). See docs/step-counter.md ("Slow and gentle walking").
public struct SlowWalkTransform: Sendable {
    /// The time stretch: cadence in daily life 1/1.25 of that in a test.
    public static let stretch = 1.25
    /// The motion scale: acceleration in daily life 1/1.96 of that in a test.
    public static let motionScale = 1 / 1.96

    /// The stretch in use.
    public let stretch: Double
    /// The motion scale in use.
    public let motionScale: Double

    /// A transform by `stretch` (at least 1: slower, never faster) and `motionScale` (> 0).
    public init(stretch: Double = SlowWalkTransform.stretch, motionScale: Double = SlowWalkTransform.motionScale) {
        precondition(stretch.isFinite && stretch >= 1, "stretch must be finite and >= 1")
        precondition(motionScale.isFinite && motionScale > 0, "motion scale must be finite and > 0")
        self.stretch = stretch
        self.motionScale = motionScale
    }

    /// The stretched time of `t` for a recording that starts at `origin` (ns).
    public func time(_ t: Int64, origin: Int64) -> Int64 {
        origin + Int64((Double(t - origin) * stretch).rounded())
    }

    /// The slow version of `samples` (time order). Timestamps stay strictly increasing: with a
    /// stretch of at least 1, instants at least 1 ns apart stay at least 1 ns apart after rounding.
    public func apply(to samples: [Sample]) -> [Sample] {
        guard let origin = samples.first?.timestamp else { return [] }
        var out = samples
        for i in out.indices { out[i].timestamp = time(out[i].timestamp, origin: origin) }
        AmplitudeScaling(mean: MeanAcceleration.of(samples) ?? .zero, scale: motionScale).apply(to: &out)
        return out
    }
}
