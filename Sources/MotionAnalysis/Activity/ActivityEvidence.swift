/// The per-window model: how strongly one window's features say each class (memberships 0...1
/// from soft thresholds), the class they favour, and the confidence (0-100) of each class.
///
/// Rules (thresholds in ``ActivityClassifierConfiguration``; `∧` is the minimum of soft steps that
/// go from 0 to 1 between 0.75 and 1.25 times a threshold, or ±0.1 around a periodicity):
/// - still   = motion low ∧ (rotation low, with a gyroscope)
/// - walking = gait periodic ∧ vertical ≥ walkingMinimum ∧ vertical < runningAmplitude
/// - running = gait periodic ∧ vertical ≥ runningAmplitude
/// - cycling = not periodic ∧ floor ≥ cyclingFloor ∧ motion < cyclingMotion
/// - vehicle = not periodic ∧ vehicleFloor ≤ floor < cyclingFloor ∧ motion < vehicleMotion ∧ tilt < vehicleTilt
/// - unknown = 1 − the largest of the others (also the whole evidence without gravity)
public struct ActivityEvidence: Sendable, Equatable {
    /// Membership per class, ``ActivityClass/index`` order.
    public var memberships: [Double]

    /// The class with the largest membership (the first in class order on a tie).
    public var favoured: ActivityClass {
        var best = 0
        for i in memberships.indices where memberships[i] > memberships[best] { best = i }
        return ActivityClass(index: best)
    }

    /// Confidence (0-100) that the window shows `c`: its share of the memberships.
    public func confidence(_ c: ActivityClass) -> Double {
        let total = memberships.reduce(0, +)
        return total > 0 ? 100 * memberships[c.index] / total : 0
    }

    /// The memberships for `f` under `c`'s thresholds.
    public init(_ f: ActivityFeatures, _ c: ActivityClassifierConfiguration) {
        func above(_ x: Double, _ t: Double) -> Double { Swift.min(1, Swift.max(0, 0.5 + (x - t) / (0.5 * t))) }
        func below(_ x: Double, _ t: Double) -> Double { 1 - above(x, t) }
        let periodic = Swift.min(1, Swift.max(0, 0.5 + (f.periodicity - c.gaitPeriodicity) / 0.2))
        var m = [Double](repeating: 0, count: 6)
        if f.gravity >= 2 {
            m[ActivityClass.still.index] = Swift.min(below(f.motion, c.stillMotion), f.rotation.map { below($0, c.stillRotation) } ?? 1)
            m[ActivityClass.walking.index] = Swift.min(periodic, above(f.vertical, c.walkingMinimum), below(f.vertical, c.runningAmplitude))
            m[ActivityClass.running.index] = Swift.min(periodic, above(f.vertical, c.runningAmplitude))
            m[ActivityClass.cycling.index] = Swift.min(1 - periodic, above(f.floor, c.cyclingFloor), below(f.motion, c.cyclingMotion))
            m[ActivityClass.vehicle.index] = Swift.min(1 - periodic, above(f.floor, c.vehicleFloor), below(f.floor, c.cyclingFloor),
                                                       below(f.motion, c.vehicleMotion), below(f.tilt, c.vehicleTilt))
        }
        m[ActivityClass.unknown.index] = 1 - (m.prefix(5).max() ?? 0)
        memberships = m
    }
}
