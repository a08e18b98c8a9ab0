import MotionCore

/// Merges an accelerometer stream and a gyroscope stream from two IIO devices into one stream
/// of samples carrying both, on the accelerometer's timestamps: the gyroscope value at each
/// accelerometer time is interpolated linearly between the gyroscope samples around it (held
/// at the ends). A state machine: samples are emitted once a later gyroscope sample is known
/// (or at ``finish()``). No I/O, no clock.
public struct SampleMerger: Sendable {
    private var accel: [Sample] = []
    private var accelHead = 0
    private var gyroPrev: Sample?
    private var gyro: [Sample] = []
    private var gyroHead = 0

    /// Creates an empty merger.
    public init() {}

    /// Samples waiting for gyroscope data.
    public var pendingCount: Int { accel.count - accelHead }

    /// Adds accelerometer samples (their `accel` is used) and returns what can be merged.
    public mutating func pushAccel(_ samples: [Sample]) -> [Sample] {
        accel.append(contentsOf: samples)
        return drain(final: false)
    }

    /// Adds gyroscope samples (their `gyro` is used) and returns what can be merged.
    public mutating func pushGyro(_ samples: [Sample]) -> [Sample] {
        gyro.append(contentsOf: samples)
        return drain(final: false)
    }

    /// Merges everything pending, holding the last gyroscope value.
    public mutating func finish() -> [Sample] { drain(final: true) }

    /// - Complexity: O(n + m) amortised over the streams.
    private mutating func drain(final: Bool) -> [Sample] {
        var out: [Sample] = []
        while accelHead < accel.count {
            let a = accel[accelHead]
            // Advance gyro so that gyro[gyroHead] is the first sample at or after a.
            while gyroHead < gyro.count, gyro[gyroHead].timestamp < a.timestamp {
                gyroPrev = gyro[gyroHead]
                gyroHead += 1
            }
            let next: Sample? = gyroHead < gyro.count ? gyro[gyroHead] : nil
            let value: Vector3
            switch (gyroPrev, next) {
            case let (p?, n?):
                let span = Double(n.timestamp - p.timestamp)
                let w = span > 0 ? Double(a.timestamp - p.timestamp) / span : 1
                value = Vector3(p.gyro.x + (n.gyro.x - p.gyro.x) * w,
                                p.gyro.y + (n.gyro.y - p.gyro.y) * w,
                                p.gyro.z + (n.gyro.z - p.gyro.z) * w)
            case let (nil, n?): value = n.gyro
            case let (p?, nil):
                guard final else { return compact(out) }
                value = p.gyro
            case (nil, nil):
                guard final else { return compact(out) }
                value = .zero
            }
            out.append(Sample(timestamp: a.timestamp, accel: a.accel, gyro: value))
            accelHead += 1
        }
        return compact(out)
    }

    private mutating func compact(_ out: [Sample]) -> [Sample] {
        if accelHead > 1024 { accel.removeFirst(accelHead); accelHead = 0 }
        if gyroHead > 1024 { gyro.removeFirst(gyroHead); gyroHead = 0 }
        return out
    }
}
