import MotionCore

/// The sensors the virtual hub can expose, with their HID usages, report IDs and the raw
/// units of their input reports.
///
/// Raw units follow what the kernel's drivers derive from the descriptor (unit exponent, no
/// unit item): accelerometer in milli-g (`in_accel_scale` = 0.009806650 m/s² per raw),
/// gyroscope in centi-degrees per second (`in_anglvel_scale` = 0.000174532 rad/s per raw).
public enum EmulatedSensorKind: String, Sendable, CaseIterable, Codable {
    case accelerometer
    case gyroscope

    /// The IIO device name the kernel driver gives it.
    public var iioName: String { self == .accelerometer ? "accel_3d" : "gyro_3d" }
    /// The application collection usage on the Sensors page.
    public var usage: UInt16 { self == .accelerometer ? SensorUsage.accelerometer3D : SensorUsage.gyrometer3D }
    /// The X axis data usage (Y, Z follow).
    public var axisUsage: UInt16 { self == .accelerometer ? SensorUsage.accelerationX : SensorUsage.angularVelocityX }
    /// The report ID of both its feature and its input report.
    public var reportID: UInt8 { self == .accelerometer ? 1 : 2 }
    /// Unit exponent of the axis fields.
    public var unitExponent: Int8 { self == .accelerometer ? -3 : -2 }
    /// SI units per raw count (m/s² for the accelerometer, rad/s for the gyroscope).
    public var siPerRaw: Double {
        self == .accelerometer ? 9.80665e-3 : Double.pi / 180 * 1e-2
    }

    /// The recording's value for this sensor.
    @inlinable
    public func value(of sample: Sample) -> Vector3 { self == .accelerometer ? sample.accel : sample.gyro }

    /// Converts an SI value to raw counts, rounding to nearest and saturating at the Int32 range
    /// (non-finite components become 0).
    public func raw(_ v: Vector3) -> RawVector {
        func c(_ x: Double) -> Int32 {
            guard x.isFinite else { return 0 }
            let r = (x / siPerRaw).rounded()
            return r >= Double(Int32.max) ? .max : r <= Double(Int32.min) ? .min : Int32(r)
        }
        return RawVector(x: c(v.x), y: c(v.y), z: c(v.z))
    }
}

/// Three raw axis counts as sent in an input report.
public struct RawVector: Hashable, Sendable {
    public var x: Int32, y: Int32, z: Int32
    /// Creates a raw vector.
    public init(x: Int32, y: Int32, z: Int32) { self.x = x; self.y = y; self.z = z }
}
