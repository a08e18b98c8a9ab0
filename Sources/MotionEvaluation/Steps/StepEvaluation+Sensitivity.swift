import MotionAnalysis

extension StepEvaluation {
    /// The parameters `eval steps --sensitivity` varies, in the order it reports them.
    public static let sensitivityParameters = [
        "minAmplitude", "minSwing", "minPeriodicity", "maxIntervalRatio",
        "weakRunIntervalRatio", "maxAmplitudeRatio", "slowRunIntervalRatio", "alternatingIntervalRatio",
        "continuationMinPhase", "weakStepFraction", "periodicityWindow", "minStepInterval", "maxHold",
    ]

    /// The factors each sensitivity parameter is scaled by.
    public static let sensitivityFactors = [0.7, 0.8, 1.2, 1.3]

    /// Each of ``sensitivityParameters`` at ``sensitivityFactors`` times its value in `c`, rounded to
    /// 0.001. For `minPeriodicity` the scaled quantity is 1 − value (the tolerated non-periodic
    /// part), which keeps it below 1.
    public static func sensitivitySweeps(_ c: StepCounterConfiguration) -> [(name: String, values: [Double])] {
        sensitivityParameters.map { name in
            let v = c.value(of: name)!
            let values = sensitivityFactors.map { k -> Double in
                let x = name == "minPeriodicity" ? 1 - (1 - v) * k : v * k
                return (x * 1000).rounded() / 1000
            }
            return (name, values)
        }
    }
}
