/// One epoch of a recording's summary (``EpochSummary``): what research tools report per day,
/// hour or minute.
public struct Epoch: Sendable, Equatable {
    /// The epoch's start on the recording's clock (ns). On the local clock (the recording's clock
    /// plus the UTC offset) it is a multiple of the epoch's length.
    public var start: Int64
    /// Samples in the epoch.
    public var samples: Int
    /// Minutes with at least one sample.
    public var dataMinutes: Int
    /// Minutes with samples in a 15-minute block ``NonWearRule`` calls non-wear.
    public var nonWearMinutes: Int
    /// Minutes with samples that are not non-wear.
    public var wearMinutes: Int { dataMinutes - nonWearMinutes }
    /// Steps counted in the epoch.
    public var steps: Int
    /// The median of the epoch's 1-minute step counts over its minutes of at least
    /// ``EpochSummary/steppingMinuteSteps`` steps (nil without any): its usual walking cadence.
    public var cadenceMedian: Double?
    /// The largest 1-minute step count of the epoch (clock minutes; 0 without steps).
    public var cadencePeak: Int
    /// Minutes per activity class, in ``ActivityClass/allCases`` order.
    public var activityMinutes: [Double]
    /// Mean ENMO of the epoch's samples, mg.
    public var enmo: Double
    /// Mean MAD of the epoch's 5-second windows, mg (0 without any).
    public var mad: Double
    /// Steps inferred in the counter's silences during gait in the epoch (``InferredSteps``),
    /// not part of ``steps``.
    public var inferredSteps = 0

    /// Hours of wear.
    public var wearHours: Double { Double(wearMinutes) / 60 }
}
