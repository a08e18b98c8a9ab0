import MotionCore

/// `--range`: the accelerometer's and gyroscope's full scale, chosen from the driver's
/// `in_accel_scale_available` / `in_anglvel_scale_available` (each value is SI units per raw
/// count; the full scale is that times the largest raw value the scan format holds). Pure.
public struct CaptureRange: Hashable, Sendable {
    /// Requested accelerometer full scale, m/s² (e.g. 4 g = 39.2 m/s²), nil: leave as is.
    public var accel: Double?
    /// Requested gyroscope full scale, rad/s, nil: leave as is.
    public var gyro: Double?

    /// Creates a request.
    public init(accel: Double? = nil, gyro: Double? = nil) {
        self.accel = accel
        self.gyro = gyro
    }

    /// Whether nothing is asked.
    public var isEmpty: Bool { accel == nil && gyro == nil }

    /// What was applied to one quantity.
    public struct Applied: Hashable, Sendable {
        /// `accel` or `anglvel`.
        public var quantity: String
        /// The full scale asked, SI units.
        public var requested: Double
        /// The scale written (one of the available values).
        public var scale: Double
        /// The scale read back after writing.
        public var scaleReadBack: Double?
        /// The full scale in effect: scale read back x the largest raw value, SI units.
        public var fullScale: Double
    }

    /// The largest magnitude a raw value of `format` holds (`2^(bits-1) - 1` signed, `2^bits - 1` unsigned).
    public static func rawMax(_ format: ScanElementFormat) -> Double {
        let bits = min(63, max(1, format.bits))
        return format.isSigned ? Double((Int64(1) << Int64(bits - 1)) - 1) : Double((UInt64(1) << UInt64(bits)) - 1)
    }

    /// The available scale (as its text, to be written back verbatim) whose full scale is the
    /// smallest at or above `requested`; the largest when none reaches it. Nil for an empty list.
    /// - Parameter available: the `*_scale_available` tokens (values that do not parse are skipped).
    public static func choose(requested: Double, available: [String], rawMax: Double) -> (text: String, scale: Double)? {
        let parsed = available.compactMap { t in Double(t).flatMap { $0.isFinite && $0 > 0 ? (t, $0) : nil } }.sorted { $0.1 < $1.1 }
        guard let largest = parsed.last else { return nil }
        return parsed.first { $0.1 * rawMax >= requested * (1 - 1e-9) } ?? largest
    }

    /// Parses a `--range` value: a number with `g` (standard gravity, accelerometer), `m/s2`,
    /// `dps` (degrees/s, gyroscope) or `rad/s`. Returns which quantity and the SI full scale.
    public static func parse(_ text: String) -> (quantity: String, value: Double)? {
        let units: [(String, String, Double)] = [("m/s2", "accel", 1), ("rad/s", "anglvel", 1), ("dps", "anglvel", Double.pi / 180), ("g", "accel", 9.80665)]
        for (suffix, q, factor) in units where text.hasSuffix(suffix) {
            guard let v = Double(text.dropLast(suffix.count)), v.isFinite, v > 0 else { return nil }
            return (q, v * factor)
        }
        return nil
    }
}

/// A `--range` request that cannot be applied.
public enum CaptureRangeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device has no `*_scale_available` list for the quantity (its range is fixed or not
    /// settable through IIO), or it cannot be read.
    case notSelectable(device: String, quantity: String)
    /// No captured device measures the quantity.
    case noDevice(quantity: String)

    /// What is wrong.
    public var description: String {
        switch self {
        case let .notSelectable(d, q): "\(d) has no in_\(q)_scale_available: its range cannot be chosen (leave out --range for it)"
        case .noDevice(let q): "no captured device measures \(q == "accel" ? "acceleration" : "angular velocity") for --range"
        }
    }
}
