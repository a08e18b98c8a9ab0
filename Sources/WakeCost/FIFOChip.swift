import MotionCore

/// A sensor chip's hardware FIFO: its size in bytes and how many bytes each enabled sensor
/// adds to one scan. Capacity in scans follows from the enabled channels. Sources of the
/// built-in figures are in docs/wake-cost.md.
public struct FIFOChip: Hashable, Sendable {
    /// Name used in reports (`LSM6DS3`).
    public var name: String
    /// FIFO size (bytes).
    public var fifoBytes: Int
    /// Bytes one accelerometer scan (3 axes) takes in the FIFO.
    public var accelBytes: Int
    /// Bytes one gyroscope scan takes in the FIFO; 0 when the chip has no gyroscope.
    public var gyroBytes: Int
    /// Sensors the chip always stores per scan whatever is enabled (the Linux bmi323 driver
    /// always stores accel+gyro frames); empty when only the enabled sensors are stored.
    public var alwaysStores: SensorSet
    /// Whether the size is an assumption rather than a datasheet figure.
    public var isAssumed: Bool

    /// Creates a chip description.
    public init(name: String, fifoBytes: Int, accelBytes: Int, gyroBytes: Int, alwaysStores: SensorSet = [], isAssumed: Bool = false) {
        self.name = name
        self.fifoBytes = fifoBytes
        self.accelBytes = accelBytes
        self.gyroBytes = gyroBytes
        self.alwaysStores = alwaysStores
        self.isAssumed = isAssumed
    }

    /// Bytes one scan takes with `sensors` enabled (sensors the chip lacks are ignored).
    public func bytesPerScan(_ sensors: SensorSet) -> Int {
        let stored = alwaysStores.isEmpty ? sensors : alwaysStores
        var b = 0
        if stored.contains(.accel) { b += accelBytes }
        if stored.contains(.gyro) { b += gyroBytes }
        return b == 0 ? accelBytes : b
    }

    /// Whole scans the FIFO holds with `sensors` enabled: ⌊FIFO bytes / bytes per scan⌋.
    public func capacity(_ sensors: SensorSet) -> Int { fifoBytes / bytesPerScan(sensors) }

    /// ST LSM6DS3: 8 KiB FIFO of 6-byte (3 × 16-bit) entries, one per sensor per scan
    /// (the Linux st_lsm6dsx driver's `max_fifo_size = 1365` entries).
    public static let lsm6ds3 = FIFOChip(name: "LSM6DS3", fifoBytes: 8192, accelBytes: 6, gyroBytes: 6)
    /// Bosch BMI323: 2 KiB FIFO of 16-bit words; the Linux driver stores 6-word accel+gyro frames.
    public static let bmi323 = FIFOChip(name: "BMI323", fifoBytes: 2048, accelBytes: 6, gyroBytes: 6, alwaysStores: [.accel, .gyro])
    /// Analog Devices ADXL372: 512-sample FIFO, one 16-bit sample per axis (accelerometer only).
    public static let adxl372 = FIFOChip(name: "ADXL372", fifoBytes: 1024, accelBytes: 6, gyroBytes: 0)
    /// A HID sensor hub: the buffer is hub-firmware defined; ASSUMED 4 KiB with 32-bit values.
    public static let hidSensorHub = FIFOChip(name: "HID-hub", fifoBytes: 4096, accelBytes: 12, gyroBytes: 12, isAssumed: true)

    /// The built-in chips, in report order.
    public static let builtIn: [FIFOChip] = [lsm6ds3, bmi323, adxl372, hidSensorHub]
}
