/// The per-window model: how strongly one window's features say each class (memberships 0...1
/// from soft thresholds), the class they favour, and the confidence (0-100) of each class.
///
/// Rules (thresholds in ``ActivityClassifierConfiguration``; `∧` is the minimum of soft steps that
/// go from 0 to 1 between 0.75 and 1.25 times a threshold, or ±0.1 around a periodicity):
/// - still   = [calm motion (std of the smoothed |a|) low ∧ (rotation low, with a gyroscope)]: the device at rest
///             ∨ [not periodic ∧ calm motion ≤ restMotion ∧ vibration share < restVibration ∧ (rotation ≤ 2 × stillRotation)]: a person at rest
/// - gait periodic = periodicity high ∨ (periodicity of the last 2.4 s high ∧ its vertical ≥ shortGaitVertical)
///                   ∨ (with a gyroscope: rotational rhythm of the last 2.4 s high ∧ its rotation ≥ gaitRotation ∧ its vertical ≥ shortGaitVertical)
/// - walking = gait periodic ∧ vertical ≥ walkingMinimum ∧ vertical < runningAmplitude
/// - running = gait periodic ∧ vertical ≥ runningAmplitude
/// - cycling = not periodic ∧ floor ≥ cyclingFloor ∧ motion < cyclingMotion
/// - vehicle = not periodic ∧ vehicleFloor ≤ floor < cyclingFloor ∧ motion < vehicleMotion ∧ tilt < vehicleTilt ∧ vibration share ≥ vehicleVibration
/// - unknown = 1 − the largest of the others (also the whole evidence without gravity)
///
/// Beside the memberships, ``limbSwing``: the device turning at a limb's rate (rotation ≥
/// gaitRotation), which ``ActivityHysteresis`` reads to keep a pedalling-like window from wearing
/// down pending walking evidence.
public struct ActivityEvidence: Sendable, Equatable {
    /// Membership per class, ``ActivityClass/index`` order (lanes 0-5; lanes 6 and 7 are 0): a
    /// fixed-size value, so that a window's evidence allocates nothing.
    public var memberships: SIMD8<Double>
    /// How strongly (0...1) the device turns like a swinging limb: its rotation rate over the window
    /// at least ``ActivityClassifierConfiguration/gaitRotation`` (0 without a gyroscope).
    public var limbSwing: Double = 0

    /// The class with the largest membership (the first in class order on a tie).
    public var favoured: ActivityClass {
        var best = 0
        for i in 0..<ActivityClass.count where memberships[i] > memberships[best] { best = i }
        return ActivityClass(index: best)
    }

    /// Confidence (0-100) that the window shows `c`: its share of the memberships.
    public func confidence(_ c: ActivityClass) -> Double {
        var total = 0.0
        for i in 0..<ActivityClass.count { total += memberships[i] }
        return total > 0 ? 100 * memberships[c.index] / total : 0
    }

    /// Every class's ``confidence(_:)``, ``ActivityClass/index`` order (lanes 6 and 7 are 0).
    public var confidences: SIMD8<Double> {
        var out = SIMD8<Double>()
        for i in 0..<ActivityClass.count { out[i] = confidence(ActivityClass(index: i)) }
        return out
    }

    /// The memberships for `f` under `c`'s thresholds.
    /// - Parameter shortGait: whether the periodicity of the window's last 2.4 s counts as gait
    ///   (the classifier passes false while in a vehicle or cycling: a few periodic seconds of a
    ///   steering wheel or a pedal stroke do not end a ride; a walk after it shows over the whole window).
    public init(_ f: ActivityFeatures, _ c: ActivityClassifierConfiguration, shortGait: Bool = true) {
        func above(_ x: Double, _ t: Double) -> Double { Swift.min(1, Swift.max(0, 0.5 + (x - t) / (0.5 * t))) }
        func below(_ x: Double, _ t: Double) -> Double { 1 - above(x, t) }
        func rhythm(_ p: Double) -> Double { Swift.min(1, Swift.max(0, 0.5 + (p - c.gaitPeriodicity) / 0.2)) }
        // Gait over the whole window, or over its last 2.4 s with a walker's bounce.
        // With a gyroscope, also a rotational rhythm of the last 2.4 s (an arm's or a thigh's
        // swing) with a walker's bounce.
        var short = Swift.min(rhythm(f.shortPeriodicity), above(f.shortVertical, c.shortGaitVertical))
        if let rp = f.shortRotationPeriodicity, let rr = f.shortRotation {
            short = Swift.max(short, Swift.min(rhythm(rp), above(rr, c.gaitRotation), above(f.shortVertical, c.shortGaitVertical)))
        }
        let periodic = Swift.max(rhythm(f.periodicity), shortGait ? short : 0)
        var m = SIMD8<Double>()
        if f.gravity >= 2 {
            let deviceAtRest = Swift.min(below(f.calmMotion, c.stillMotion), f.rotation.map { below($0, c.stillRotation) } ?? 1)
            let personAtRest = Swift.min(1 - periodic, below(f.calmMotion, c.restMotion), below(f.vibrationShare, c.restVibration),
                                         f.rotation.map { below($0, 2 * c.stillRotation) } ?? 1)
            m[ActivityClass.still.index] = Swift.max(deviceAtRest, personAtRest)
            m[ActivityClass.walking.index] = Swift.min(periodic, above(f.vertical, c.walkingMinimum), below(f.vertical, c.runningAmplitude))
            m[ActivityClass.running.index] = Swift.min(periodic, above(f.vertical, c.runningAmplitude))
            m[ActivityClass.cycling.index] = Swift.min(1 - periodic, above(f.floor, c.cyclingFloor), below(f.motion, c.cyclingMotion))
            m[ActivityClass.vehicle.index] = Swift.min(1 - periodic, above(f.floor, c.vehicleFloor), below(f.floor, c.cyclingFloor),
                                                       below(f.motion, c.vehicleMotion), below(f.tilt, c.vehicleTilt),
                                                       above(f.vibrationShare, c.vehicleVibration))
        }
        var largest = m[0]
        for i in 1..<5 { largest = Swift.max(largest, m[i]) }
        m[ActivityClass.unknown.index] = 1 - largest
        memberships = m
        limbSwing = f.rotation.map { above($0, c.gaitRotation) } ?? 0
    }
}
