import MotionCore

/// The analyses' own requirements on the stream, in one place (read by `motionbatch wakes` to
/// recommend a rate). Figures and how they were measured: docs/step-counter.md ("Sampling rate").
extension AnalysisRequirement {
    /// ``StepCounter``: 12.5 Hz. It is validated on native 12.5 Hz wrist data (the Bangle.js
    /// walks: MAPE 2.13 %, worst file 4.5 %); resampled to 10 Hz and below the wrist walks
    /// degrade (10 Hz: 2.84 % / 6.0 %; 8 Hz: worst file 14 %, at the 15 % target) and below 8 Hz
    /// the phone walks miss their worst-file target (`scripts/step-rate-sweep.py`).
    public static let stepCounter = AnalysisRequirement(
        analysis: "step-counter", minimumRateHz: 12.5,
        basis: "validated on native 12.5 Hz wrist walks (MAPE 2.13 %, worst 4.5 %); resampled below 12.5 Hz the wrist walks degrade "
            + "(8 Hz: worst file 14 %) — scripts/step-rate-sweep.py, docs/step-counter.md")

    /// ``ActivityClassifier``: 12.5 Hz. Its 25 Hz grid interpolates 12.5 Hz input; it is checked
    /// on native 12.5 Hz wrist data (the Bangle.js drive and train: no walking, at most 4 changes
    /// per hour) and 26 Hz ST logs (every majority label right), `motionbatch eval activity`.
    public static let activityClassifier = AnalysisRequirement(
        analysis: "activity-classifier", minimumRateHz: 12.5,
        basis: "checked on native 12.5 Hz wrist data (Bangle drive and train) and 26 Hz ST logs — motionbatch eval activity, "
            + "docs/activity-classifier.md")

    /// Every analysis MotionBatch runs over the batches, in report order.
    public static let all: [AnalysisRequirement] = [stepCounter, activityClassifier]
}
