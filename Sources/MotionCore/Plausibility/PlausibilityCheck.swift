/// The plausibility rule (``PlausibilityRule``) applied to one stream: fed the samples as they
/// are read (O(1) per sample: three log histograms of the first 4096 samples and one in 16 after them), judged at the end. Its findings do not
/// depend on how the samples were split into chunks. Pure.
public struct PlausibilityCheck: Sendable {
    /// The rule applied.
    public let rule: PlausibilityRule
    /// The stream's declared rate (Hz), if its header gives one.
    public let declaredRateHz: Double?
    /// Whether the stream carries a gyroscope.
    public let hasGyro: Bool

    /// Samples seen.
    public private(set) var sampleCount = 0
    private var accelSquared = LogHistogram()
    private var gyroSquared = LogHistogram()
    private var intervals = LogHistogram()
    /// The sum of the acceleration vectors (its length over n: the mean vector's, about 1 g with gravity, 0 without).
    private var accelSum = Vector3.zero
    private var first: Int64?
    private var last: Int64?

    /// A check of a stream with `sensors`, declaring `declaredRateHz`.
    public init(rule: PlausibilityRule, declaredRateHz: Double?, hasGyro: Bool) {
        self.rule = rule
        self.declaredRateHz = declaredRateHz
        self.hasGyro = hasGyro
    }

    /// The first this many samples of a stream are all taken by the histograms and the mean.
    public static let denseSamples = 4096
    /// After them, one in this many (by its index in the stream, so the chunking cannot change
    /// which): a median and a 99th percentile of hundreds of samples are as good as of all of them.
    public static let stride = 16

    /// Counts `samples`.
    /// - Complexity: O(n / ``stride``) after the first ``denseSamples``, a few operations per sample taken.
    public mutating func add<C: RandomAccessCollection>(_ samples: C) where C.Element == Sample {
        guard let head = samples.first, let tail = samples.last else { return }
        if first == nil { first = head.timestamp }
        let start = sampleCount
        sampleCount += samples.count
        if samples.withContiguousStorageIfAvailable({ take($0, start: start) }) == nil {
            let copy = Array(samples)
            copy.withUnsafeBufferPointer { take($0, start: start) }
        }
        last = tail.timestamp
    }

    /// Takes the samples of `b` (the stream's samples from index `start`) that the rule samples.
    private mutating func take(_ b: UnsafeBufferPointer<Sample>, start: Int) {
        var i = 0
        let n = b.count
        while i < n {
            let index = start + i
            if index >= Self.denseSamples {
                let skip = (Self.stride - index % Self.stride) % Self.stride
                i += skip
                if i >= n { break }
            }
            let s = b[i]
            let a = s.accel
            accelSquared.add(a.x * a.x + a.y * a.y + a.z * a.z)
            accelSum.x += a.x
            accelSum.y += a.y
            accelSum.z += a.z
            if hasGyro {
                let g = s.gyro
                gyroSquared.add(g.x * g.x + g.y * g.y + g.z * g.z)
            }
            let before = i == 0 ? last : b[i - 1].timestamp
            if let before, s.timestamp > before { intervals.add(Double(s.timestamp &- before)) }
            i += start + i >= Self.denseSamples ? Self.stride : 1
        }
    }

    /// One finding of the rule.
    public struct Finding: Sendable, Equatable {
        /// Its warning kind (``RecordingWarningKind/plausibility``).
        public var kind: RecordingWarningKind
        /// What was measured, what it suggests and the fix.
        public var message: String
    }

    /// What the rule finds in the samples seen.
    public var findings: [Finding] {
        guard sampleCount > 0 else {
            return [Finding(kind: .emptyStream, message: "the recording holds no samples: nothing to analyse")]
        }
        guard sampleCount >= rule.minimumSamples else { return [] }
        return [accelerationFinding, rateFinding, rotationFinding].compactMap { $0 }
    }

    private static let gravity = AccelerationUnit.standardGravityValue

    /// The mean acceleration vector's length over the median |a|: 0.6-1.3 on every real
    /// recording (gravity dominates the mean whatever the motion), near 0 without gravity.
    public var gravityShare: Double {
        guard accelSquared.count > 0, let m2 = accelSquared.median, m2 > 0 else { return 0 }
        let n = Double(accelSquared.count)
        let mean = ((accelSum.x / n) * (accelSum.x / n) + (accelSum.y / n) * (accelSum.y / n) + (accelSum.z / n) * (accelSum.z / n)).squareRoot()
        return mean / m2.squareRoot()
    }

    /// Below this ``gravityShare`` the stream has no gravity in it.
    static let minimumGravityShare = 0.3

    private var accelerationFinding: Finding? {
        guard let m2 = accelSquared.median else { return nil }
        let m = m2.squareRoot()
        if rule.plausibleGravity.contains(m) { return nil }
        let measured = "the median |a| is \(Self.figure(m)) m/s² over \(sampleCount) samples, where gravity alone gives 9.81"
        let withGravity = gravityShare >= Self.minimumGravityShare
        let current = rule.accelUnit ?? .metersPerSecondSquared
        // The unit that would put the median near 1 g.
        for unit in AccelerationUnit.allCases where unit != current && withGravity {
            let converted = m * unit.metersPerSecondSquared / current.metersPerSecondSquared
            guard rule.plausibleGravity.contains(converted) else { continue }
            let fix = rule.columns ? "add --accel-unit \(unit.rawValue)" : "the file's unit is not the one its format declares"
            return Finding(kind: .implausibleAcceleration, message: "\(measured): values look like \(unit.rawValue): \(fix)")
        }
        if m > rule.plausibleGravity.upperBound {
            let perG = m / current.metersPerSecondSquared
            let fix = rule.rawLayout
                ? (rule.rawLayoutScaled ? "check --layout's byte order (le/be) and SCALE" : "give each axis's SCALE in --layout (ID:FORMAT:SCALE)")
                : (rule.columns ? "convert them to m/s², g or mg" : "the scale is missing")
            return Finding(kind: .implausibleAcceleration, message: "\(measured): values look like raw counts (about \(Self.figure(perG)) per g): \(fix)")
        }
        if !withGravity {
            return Finding(kind: .implausibleAcceleration, message: "\(measured) and their mean is near 0: values look like acceleration without gravity (linear acceleration), which the analyses cannot use: record total acceleration")
        }
        return Finding(kind: .implausibleAcceleration, message: "\(measured): the values are about \(Self.figure(Self.gravity / m)) times too small for m/s²: check the unit or scale")
    }

    /// The stream's rate, Hz: samples per second over its span, or where gaps make that less
    /// than two thirds of the rate of the median interval, the latter; nil under two samples.
    public var rateHz: Double? {
        guard let dt = intervals.median, dt > 0, let first, let last, last > first else { return nil }
        let median = 1e9 / dt
        let effective = Double(sampleCount - 1) / (Double(last &- first) / 1e9)
        return effective >= median * 2 / 3 ? effective : median
    }

    private var rateFinding: Finding? {
        guard let rate = rateHz else { return nil }
        let low = rule.minimumRateHz * (1 - rule.rateTolerance)
        let measured = "the sample rate is \(Self.figure(rate)) Hz (one sample every \(Self.duration(1e9 / rate)))"
        var problem: String?
        if rate < low {
            problem = "\(measured), below the analyses' \(Self.figure(rule.minimumRateHz)) Hz minimum"
        } else if rate > rule.maximumRateHz {
            problem = "\(measured), beyond any IMU's rate"
        } else if let d = declaredRateHz, rate > 2 * d || rate < d / 2 {
            problem = "\(measured), but the header declares \(Self.figure(d)) Hz"
        }
        guard let problem else { return nil }
        if let current = rule.timeUnit {
            let nsPerUnit = { (u: TimeUnit) -> Double in
                var f = 1.0
                for _ in 0..<u.fractionDigits { f *= 10 }
                return f
            }
            for unit in TimeUnit.allCases where unit != current {
                let converted = rate * nsPerUnit(current) / nsPerUnit(unit)
                if converted >= low && converted <= 2000 {
                    return Finding(kind: .implausibleRate, message: "\(problem): time looks like \(Self.unitName(unit)) (\(Self.figure(converted)) Hz): --time-unit \(unit.rawValue)")
                }
            }
        }
        return Finding(kind: .implausibleRate, message: problem + (rate < low ? ": steps and activity are not reliable at this rate" : ""))
    }

    private var rotationFinding: Finding? {
        guard hasGyro, let p99 = gyroSquared.quantile(0.99) else { return nil }
        let w = p99.squareRoot()
        guard w > rule.maximumAngularRate else { return nil }
        let measured = "the gyroscope's 99th percentile |ω| is \(Self.figure(w)) rad/s (\(Self.figure(w * 180 / Double.pi)) °/s), beyond any wrist or body motion"
        if rule.gyroUnit ?? .radiansPerSecond == .radiansPerSecond, w * Double.pi / 180 <= rule.maximumAngularRate {
            let fix = rule.columns ? "add --gyro-unit deg/s" : "the file's unit is not the one its format declares"
            return Finding(kind: .implausibleRotation, message: "\(measured): values look like deg/s: \(fix)")
        }
        return Finding(kind: .implausibleRotation, message: "\(measured): check the gyroscope's unit or scale")
    }

    private static func unitName(_ u: TimeUnit) -> String {
        switch u {
        case .seconds: return "seconds"
        case .milliseconds: return "milliseconds"
        case .microseconds: return "microseconds"
        case .nanoseconds: return "nanoseconds"
        }
    }

    /// Three significant digits.
    static func figure(_ x: Double) -> String {
        guard x.isFinite, x != 0 else { return x == 0 ? "0" : "\(x)" }
        if abs(x) >= 100 { return String(Int64(x.rounded())) }
        var scale = 1.0
        while abs(x) * scale < 100 && scale < 1e15 { scale *= 10 }
        return ((x * scale).rounded() / scale).compactText
    }

    private static func duration(_ ns: Double) -> String {
        if ns >= 1e9 { return figure(ns / 1e9) + " s" }
        if ns >= 1e6 { return figure(ns / 1e6) + " ms" }
        if ns >= 1e3 { return figure(ns / 1e3) + " µs" }
        return figure(ns) + " ns"
    }
}
