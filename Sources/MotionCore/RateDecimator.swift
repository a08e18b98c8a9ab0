/// What a sensor running at a lower rate would have produced from a recorded stream: one sample
/// per 1/rate slot of time from the stream's first sample (slot = ⌊(t − t₀) / 1 s · rate⌋), the
/// **mean** of the slot's samples (accelerometer and gyroscope), stamped with the slot's first
/// sample's time. Averaging is the box-car low-pass that a sensor's output data rate implies
/// (MEMS IMUs filter to the chosen ODR before sampling); taking one sample per slot instead would
/// alias motion above the new Nyquist frequency into the analysis (a walk's harmonics folded onto
/// its cadence). A state machine fed one sample at a time; no I/O, no clock.
///
/// For rates below the stream's own: at or above it, slot boundaries computed in floating point
/// can fall between samples and drop some, so such rates are replayed as the stream is.
public struct RateDecimator: Sendable {
    /// The rate produced, Hz.
    public let rateHz: Double
    private var origin: Int64?
    private var slot = Int64.min
    /// The open slot: its first sample's time, the sums and how many samples it holds.
    private var slotTime: Int64 = 0
    private var accel = Vector3.zero
    private var gyro = Vector3.zero
    private var count = 0

    /// Creates a decimator.
    /// - Precondition: `rateHz` is finite and positive.
    public init(rateHz: Double) {
        precondition(rateHz.isFinite && rateHz > 0, "rate must be finite and > 0")
        self.rateHz = rateHz
    }

    /// Whether a slot is open (a sample pushed since the last one was produced).
    public var hasPending: Bool { count > 0 }

    /// Feeds the next sample (time order). Returns the previous slot's mean when `sample` opens a
    /// new slot, else nil.
    /// - Complexity: O(1).
    public mutating func push(_ sample: Sample) -> Sample? {
        let t0 = origin ?? sample.timestamp
        origin = t0
        let position = (Double(sample.timestamp - t0) / 1e9 * rateHz).rounded(.down)
        let k = position < 9.2e18 ? Int64(position) : Int64.max
        var produced: Sample?
        if k != slot || count == 0 {
            produced = flush()
            slot = k
            slotTime = sample.timestamp
        }
        accel = Vector3(accel.x + sample.accel.x, accel.y + sample.accel.y, accel.z + sample.accel.z)
        gyro = Vector3(gyro.x + sample.gyro.x, gyro.y + sample.gyro.y, gyro.z + sample.gyro.z)
        count += 1
        return produced
    }

    /// Closes the open slot (end of stream, or an interruption: a slot never averages across one)
    /// and returns its mean, or nil when none is open.
    /// - Complexity: O(1).
    public mutating func flush() -> Sample? {
        guard count > 0 else { return nil }
        let n = Double(count)
        let mean = Sample(timestamp: slotTime,
                          accel: Vector3(accel.x / n, accel.y / n, accel.z / n),
                          gyro: Vector3(gyro.x / n, gyro.y / n, gyro.z / n))
        accel = .zero
        gyro = .zero
        count = 0
        return mean
    }
}
