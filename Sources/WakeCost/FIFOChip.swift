import MotionCore

/// A sensor chip's hardware FIFO: its size, and how many bytes one scan takes in it with the
/// accelerometer alone and with accelerometer and gyroscope, *as the Linux driver configures
/// the FIFO* (header or tag bytes and timestamp words included). Capacity in scans follows.
/// The built-in chips and the datasheet sections behind every figure are in
/// ``FIFOChip/builtIn`` and docs/wake-cost.md section 3.
public struct FIFOChip: Hashable, Sendable {
    /// Name used in reports and on the command line (`LSM6DS3`).
    public var name: String
    /// FIFO size (bytes).
    public var fifoBytes: Int
    /// Bytes one accelerometer-only scan takes in the FIFO (a frame: data plus any header, tag or
    /// timestamp the driver stores with it).
    public var accelFrameBytes: Int
    /// Bytes one accelerometer + gyroscope scan takes; nil when the chip has no gyroscope.
    public var accelGyroFrameBytes: Int?
    /// What a frame holds, in words (`6-byte data set + 6-byte timestamp set`).
    public var frameLayout: String
    /// The source of the size and the frame layout: datasheet name, document number, revision
    /// and section (and the Linux driver where it decides the layout).
    public var source: String
    /// The mainline Linux driver and whether it batches in this FIFO (watermark interrupt /
    /// `buffer/hwfifo_*`), or reads every sample on its own interrupt.
    public var linuxDriver: String
    /// Whether the mainline Linux driver batches in the FIFO (hardware buffering is then real).
    public var linuxBatches: Bool
    /// Whether the size is an assumption rather than a datasheet figure.
    public var isAssumed: Bool

    /// Creates a chip description. Call ``validate(file:)`` on values from outside.
    public init(name: String, fifoBytes: Int, accelFrameBytes: Int, accelGyroFrameBytes: Int?, frameLayout: String = "",
                source: String = "", linuxDriver: String = "", linuxBatches: Bool = true, isAssumed: Bool = false) {
        self.name = name
        self.fifoBytes = fifoBytes
        self.accelFrameBytes = accelFrameBytes
        self.accelGyroFrameBytes = accelGyroFrameBytes
        self.frameLayout = frameLayout
        self.source = source
        self.linuxDriver = linuxDriver
        self.linuxBatches = linuxBatches
        self.isAssumed = isAssumed
    }

    /// Whether the chip has a gyroscope.
    public var hasGyro: Bool { accelGyroFrameBytes != nil }

    /// Bytes one scan takes with `sensors` enabled (a gyroscope the chip lacks is ignored).
    public func bytesPerScan(_ sensors: SensorSet) -> Int {
        if sensors.contains(.gyro), let both = accelGyroFrameBytes { return both }
        return accelFrameBytes
    }

    /// Whole scans the FIFO holds with `sensors` enabled: ⌊FIFO bytes / bytes per scan⌋.
    public func capacity(_ sensors: SensorSet) -> Int { fifoBytes / bytesPerScan(sensors) }

    /// Largest FIFO accepted from outside (1 GiB): far above any sensor's, small enough that every
    /// derived figure stays exact.
    public static let maximumFIFOBytes = 1 << 30

    /// Checks that the sizes are possible: FIFO in 1 B...1 GiB, frames positive, a frame not larger
    /// than the FIFO, the two-sensor frame not smaller than the one-sensor frame.
    /// - Throws: ``WakeCostError`` naming `file` and the key.
    public func validate(file: String) throws(WakeCostError) {
        guard fifoBytes > 0, fifoBytes <= Self.maximumFIFOBytes else {
            throw WakeCostError(file: file, key: "fifo_bytes", problem: "must be in 1...\(Self.maximumFIFOBytes), got \(fifoBytes)")
        }
        guard accelFrameBytes > 0, accelFrameBytes <= fifoBytes else {
            throw WakeCostError(file: file, key: "accel_frame_bytes", problem: "must be in 1...fifo_bytes (\(fifoBytes)), got \(accelFrameBytes)")
        }
        if let both = accelGyroFrameBytes {
            guard both >= accelFrameBytes, both <= fifoBytes else {
                throw WakeCostError(file: file, key: "accel_gyro_frame_bytes", problem: "must be in accel_frame_bytes (\(accelFrameBytes))...fifo_bytes (\(fifoBytes)), got \(both)")
            }
        }
    }
}
