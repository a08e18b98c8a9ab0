import MotionCore

/// A recording summarised per day, hour or minute: steps, cadence, minutes per activity class,
/// ENMO, MAD and wear time. Built from the results of one analysis pipeline (the step counter,
/// the activity classifier and ``AccelerationMetricsAnalyzer``), so it is the same for every
/// batching of the stream.
///
/// Epochs are cut on the **local clock**: the recording's clock plus `utcOffsetSeconds` (the
/// device's offset from UTC when the recording's times are UTC; 0 when they are already local
/// or relative), so that a day runs from local midnight to midnight. Only epochs holding at
/// least one sample are listed.
public struct EpochSummary: Sendable, Equatable {
    /// A minute counts for the median cadence from this many steps (Tudor-Locke et al.'s cadence
    /// bands: below 20 steps/min is incidental movement, not walking).
    public static let steppingMinuteSteps = 20

    /// The epochs' length.
    public var length: EpochLength
    /// The offset added to the recording's clock to cut epochs on the local clock, s.
    public var utcOffsetSeconds: Int
    /// The epochs with samples, in time order.
    public var epochs: [Epoch]

    /// Summarises one recording's analyses.
    /// - Parameters:
    ///   - metrics: ``AccelerationMetricsAnalyzer``'s result.
    ///   - steps: the step times (ns, the recording's clock).
    ///   - inferred: the inferred steps' times (``InferredSteps/times``), counted apart.
    ///   - timeline: the activity classifier's segments.
    ///   - nonWear: the rule that marks non-wear blocks.
    /// - Complexity: O(minutes + steps + segments + epochs × classes).
    public init(length: EpochLength, utcOffsetSeconds: Int, metrics: AccelerationMetrics, steps: [Int64], inferred: [Int64] = [],
                timeline: ActivityTimeline, nonWear: NonWearRule) {
        self.length = length
        self.utcOffsetSeconds = utcOffsetSeconds
        let minuteNs = AccelerationMetricsAnalyzer.minuteNs
        // Local minutes: the offsets are whole minutes (UTCOffset), so minute boundaries agree.
        let offsetMinutes = Int64(utcOffsetSeconds / 60)
        let epochMinutes = length.minutes
        func epochIndex(localMinute m: Int64) -> Int64 { AccelerationMetricsAnalyzer.floorDiv(m, epochMinutes) }
        func epochStart(_ e: Int64) -> Int64 { (e &* epochMinutes &- offsetMinutes) &* minuteNs }

        let nonWearBlocks = Set(nonWear.nonWearBlocks(metrics))
        var out: [Epoch] = []
        var positions: [Int64: Int] = [:]
        func slot(_ e: Int64) -> Int {
            if let p = positions[e] { return p }
            positions[e] = out.count
            out.append(Epoch(start: epochStart(e), samples: 0, dataMinutes: 0, nonWearMinutes: 0, steps: 0, cadenceMedian: nil,
                             cadencePeak: 0, activityMinutes: [Double](repeating: 0, count: ActivityClass.allCases.count), enmo: 0, mad: 0))
            return out.count - 1
        }
        var enmoSums: [Double] = [], madSums: [Double] = [], madCounts: [Int] = []
        for minute in metrics.minutes {
            let e = slot(epochIndex(localMinute: minute.index + offsetMinutes))
            if enmoSums.count < out.count { enmoSums.append(0); madSums.append(0); madCounts.append(0) }
            out[e].samples += minute.samples
            out[e].dataMinutes += 1
            let block = AccelerationMetricsAnalyzer.floorDiv(minute.index, NonWearRule.blockNs / minuteNs)
            if nonWearBlocks.contains(block) { out[e].nonWearMinutes += 1 }
            enmoSums[e] += minute.enmoSum
            madSums[e] += minute.madSum
            madCounts[e] += minute.madWindows
        }
        for e in out.indices {
            out[e].enmo = out[e].samples > 0 ? enmoSums[e] / Double(out[e].samples) * 1000 : 0
            out[e].mad = madCounts[e] > 0 ? madSums[e] / Double(madCounts[e]) * 1000 : 0
        }

        // Steps per clock minute, then per epoch (steps outside any epoch with samples are none:
        // every step has a sample at its time).
        var perMinute: [(minute: Int64, count: Int)] = []
        for t in steps {
            let m = AccelerationMetricsAnalyzer.floorDiv(t, minuteNs) + offsetMinutes
            if let last = perMinute.last, last.minute == m { perMinute[perMinute.count - 1].count += 1 } else { perMinute.append((m, 1)) }
        }
        var stepping: [Int64: [Int]] = [:]
        for (m, count) in perMinute {
            let e = epochIndex(localMinute: m)
            guard let p = positions[e] else { continue }
            out[p].steps += count
            out[p].cadencePeak = max(out[p].cadencePeak, count)
            if count >= Self.steppingMinuteSteps { stepping[e, default: []].append(count) }
        }
        for t in inferred {
            let e = epochIndex(localMinute: AccelerationMetricsAnalyzer.floorDiv(t, minuteNs) + offsetMinutes)
            if let p = positions[e] { out[p].inferredSteps += 1 }
        }
        for (e, counts) in stepping {
            guard let p = positions[e] else { continue }
            let sorted = counts.sorted()
            let n = sorted.count
            out[p].cadenceMedian = n % 2 == 1 ? Double(sorted[n / 2]) : Double(sorted[n / 2 - 1] + sorted[n / 2]) / 2
        }

        // Activity: each segment's time split at the epochs' boundaries.
        let epochNs = epochMinutes &* minuteNs
        for segment in timeline.segments where segment.end > segment.start {
            var from = segment.start
            while from < segment.end {
                let e = epochIndex(localMinute: AccelerationMetricsAnalyzer.floorDiv(from, minuteNs) + offsetMinutes)
                let to = min(segment.end, epochStart(e) &+ epochNs)
                if let p = positions[e] { out[p].activityMinutes[segment.label.index] += Double(to - from) / 60e9 }
                guard to > from else { break }
                from = to
            }
        }
        out.sort { $0.start < $1.start }
        epochs = out
    }

    /// The days (``EpochLength/day`` epochs) with at least `hours` of wear.
    public func validDays(minimumWearHours hours: Double) -> Int {
        epochs.filter { $0.wearHours >= hours }.count
    }
}
