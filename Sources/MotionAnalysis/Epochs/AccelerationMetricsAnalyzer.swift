import MotionCore

/// The acceleration metrics research tools report per epoch, accumulated per clock minute:
///
/// - **ENMO** (Euclidean norm minus one, van Hees et al. 2013): max(0, |a| − 1 g) per sample,
///   averaged; GGIR's and biobankAccelerometerAnalysis's main metric.
/// - **MAD** (mean amplitude deviation, Vähä-Ypyä et al. 2015): in each 5-second window of the
///   clock (aligned to multiples of 5 s), the mean absolute deviation of |a| from its mean in the
///   window; an epoch's MAD is the mean of its windows'.
/// - Per-axis statistics of 7.5-minute pieces, from which ``NonWearRule`` builds GGIR's
///   60-minute windows.
///
/// Values in g (1 g = 9.80665 m/s², the unit the rules are published in). No clock is read: the
/// minutes are those of the sample timestamps. An interruption closes the 5-second window at
/// hand (no window spans it).
///
/// - Complexity: O(1) per sample; memory O(minutes with samples), about 100 bytes a minute
///   (1 MB for a week).
public struct AccelerationMetricsAnalyzer: BatchAnalyzer {
    /// One minute, ns.
    public static let minuteNs: Int64 = 60_000_000_000
    /// One MAD window, ns.
    public static let madWindowNs: Int64 = 5_000_000_000
    /// One non-wear piece (7.5 min), ns.
    public static let pieceNs: Int64 = 450_000_000_000
    /// Standard gravity, m/s².
    public static let standardGravity = 9.80665

    private var metrics = AccelerationMetrics()
    /// The minute samples are being added to (not yet in `metrics`), if any.
    private var openMinute: AccelerationMinute?
    /// The 7.5-minute piece samples are being added to: its index and axes (not yet in `metrics`).
    private var openPiece: Int64?
    private var pieceX = AxisStatistics(), pieceY = AxisStatistics(), pieceZ = AxisStatistics()
    /// The 5-second window at hand: its span, and the magnitudes (g) and ENMO sum of its samples.
    private var windowStart = Int64.max, windowEnd = Int64.min
    private var madValues: [Double] = []
    private var windowENMO = 0.0

    /// The calibration applied to every sample before the metrics (identity when not applied).
    private let offset: Vector3
    private let scale: Vector3

    /// A fresh analyzer; `calibration`, when applied, corrects every sample first (in g:
    /// `(a + offset) × scale`).
    public init(calibration: AccelerationCalibration? = nil) {
        madValues.reserveCapacity(2048)
        if let c = calibration, c.isApplied {
            offset = Vector3(c.offset[0], c.offset[1], c.offset[2])
            scale = Vector3(c.scale[0], c.scale[1], c.scale[2])
        } else {
            offset = .zero
            scale = Vector3(1, 1, 1)
        }
    }

    /// `acceleration`.
    public var name: String { "acceleration" }

    /// Adds the delivery's samples.
    public mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> NoOutput {
        let g = 1 / Self.standardGravity
        for s in batch.samples {
            let t = s.timestamp
            // A 5 s window lies within one minute and one 7.5 min piece: only a new window can
            // change them.
            if t < windowStart || t >= windowEnd { enterWindow(t) }
            let x = (s.accel.x * g + offset.x) * scale.x, y = (s.accel.y * g + offset.y) * scale.y, z = (s.accel.z * g + offset.z) * scale.z
            let r = (x * x + y * y + z * z).squareRoot()
            madValues.append(r)
            windowENMO += max(0, r - 1)
            pieceX.add(x)
            pieceY.add(y)
            pieceZ.add(z)
        }
        return NoOutput()
    }

    /// Closes the window at hand and opens the one holding `t` (and its minute and piece).
    private mutating func enterWindow(_ t: Int64) {
        closeMADWindow()
        let window = Self.floorDiv(t, Self.madWindowNs)
        windowStart = window &* Self.madWindowNs
        windowEnd = windowStart &+ Self.madWindowNs
        let minute = Self.floorDiv(windowStart, Self.minuteNs)
        if openMinute?.index != minute {
            flushMinute()
            openMinute = AccelerationMinute(index: minute)
        }
        let piece = Self.floorDiv(windowStart, Self.pieceNs)
        if piece != openPiece {
            flushPiece()
            openPiece = piece
        }
    }

    /// Closes the 5-second window at hand: no window spans an interruption.
    public mutating func interrupt(at time: Int64, context: AnalysisContext) -> NoOutput {
        closeMADWindow()
        return NoOutput()
    }

    /// Closes the last 5-second window, minute and piece.
    public mutating func finish(context: AnalysisContext) -> NoOutput {
        closeMADWindow()
        flushMinute()
        flushPiece()
        return NoOutput()
    }

    /// The metrics so far (the open 5-second window's included).
    public var result: AccelerationMetrics {
        var copy = self
        copy.closeMADWindow()
        copy.flushMinute()
        copy.flushPiece()
        return copy.metrics
    }

    /// Adds the window at hand (its samples, ENMO and MAD) to its minute; the next sample opens a new one.
    private mutating func closeMADWindow() {
        defer {
            madValues.removeAll(keepingCapacity: true)
            windowENMO = 0
            windowStart = .max
            windowEnd = .min
        }
        guard !madValues.isEmpty, openMinute != nil else { return }
        var sum = 0.0
        for v in madValues { sum += v }
        let mean = sum / Double(madValues.count)
        var deviation = 0.0
        for v in madValues { deviation += abs(v - mean) }
        openMinute!.samples += madValues.count
        openMinute!.enmoSum += windowENMO
        openMinute!.madSum += deviation / Double(madValues.count)
        openMinute!.madWindows += 1
    }

    /// Moves the open minute into `metrics` (merged with one of the same index already there).
    private mutating func flushMinute() {
        guard let open = openMinute else { return }
        openMinute = nil
        let m = minuteSlot(open.index)
        metrics.minutes[m].samples += open.samples
        metrics.minutes[m].enmoSum += open.enmoSum
        metrics.minutes[m].madSum += open.madSum
        metrics.minutes[m].madWindows += open.madWindows
    }

    /// Moves the open piece into `metrics` (merged with one of the same index already there).
    private mutating func flushPiece() {
        guard let index = openPiece else { return }
        openPiece = nil
        let p = pieceSlot(index)
        metrics.pieces[p].axes[0] = metrics.pieces[p].axes[0].merged(with: pieceX)
        metrics.pieces[p].axes[1] = metrics.pieces[p].axes[1].merged(with: pieceY)
        metrics.pieces[p].axes[2] = metrics.pieces[p].axes[2].merged(with: pieceZ)
        pieceX = AxisStatistics(); pieceY = AxisStatistics(); pieceZ = AxisStatistics()
    }

    /// The position of `minute` in the minutes, appended (or inserted, for a timestamp that went
    /// back) when new.
    private mutating func minuteSlot(_ minute: Int64) -> Int {
        Self.slot(minute, in: &metrics.minutes, index: \.index, make: AccelerationMinute.init(index:))
    }

    private mutating func pieceSlot(_ piece: Int64) -> Int {
        Self.slot(piece, in: &metrics.pieces, index: \.index, make: AccelerationPiece.init(index:))
    }

    /// The position of the element of `items` (sorted by `index`) whose index is `key`, made with
    /// `make` and put in its place when there is none (at the end, in time order, in O(1)).
    private static func slot<T>(_ key: Int64, in items: inout [T], index: KeyPath<T, Int64>, make: (Int64) -> T) -> Int {
        if let last = items.last {
            if last[keyPath: index] == key { return items.count - 1 }
            if last[keyPath: index] < key { items.append(make(key)); return items.count - 1 }
        } else {
            items.append(make(key))
            return 0
        }
        let i = lowerBound(items.count) { items[$0][keyPath: index] < key }
        if i < items.count && items[i][keyPath: index] == key { return i }
        items.insert(make(key), at: i)
        return i
    }

    /// The first index in `0..<count` for which `before` is false (`before` true then false).
    static func lowerBound(_ count: Int, _ before: (Int) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if before(mid) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// ⌊a / b⌋ for b > 0 (rounding towards −∞, so that times before the clock's zero fall in
    /// negative minutes).
    @inline(__always)
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b < 0) ? q - 1 : q
    }
}
