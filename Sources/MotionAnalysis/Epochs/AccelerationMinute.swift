/// One clock minute of acceleration metrics (``AccelerationMetricsAnalyzer``): its samples, the sum
/// of their ENMO, and the mean amplitude deviations of the 5-second windows that start in it.
public struct AccelerationMinute: Sendable, Equatable {
    /// The minute: its start is `index × 60 s` on the recording's clock (ns since its zero).
    public var index: Int64
    /// Samples in the minute.
    public var samples: Int = 0
    /// Sum over the samples of ENMO, max(0, |a| − 1 g), in g.
    public var enmoSum: Double = 0
    /// Sum of the MAD (mean |r − mean r| of the vector magnitude r, in g) of each 5-second window
    /// that starts in the minute.
    public var madSum: Double = 0
    /// 5-second windows that start in the minute.
    public var madWindows: Int = 0

    /// An empty minute.
    public init(index: Int64) { self.index = index }

    /// The minute's start on the recording's clock (ns).
    public var start: Int64 { index &* AccelerationMetricsAnalyzer.minuteNs }
}

/// 7.5 minutes of per-axis statistics (in g), the piece the 60-minute non-wear windows of
/// ``NonWearRule`` are built from (a window centred on a 15-minute block spans 8 pieces).
public struct AccelerationPiece: Sendable, Equatable {
    /// The piece: its start is `index × 7.5 min` on the recording's clock.
    public var index: Int64
    /// x, y and z.
    public var axes = [AxisStatistics](repeating: AxisStatistics(), count: 3)

    /// An empty piece.
    public init(index: Int64) { self.index = index }
}
