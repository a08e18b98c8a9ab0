import MotionCore

/// What a recommended setting must satisfy.
public struct RecommendationConstraints: Hashable, Sendable {
    /// How late a step or activity change may become visible (s); nil: no limit. With a replayed
    /// recording it limits the measured worst visibility delay, otherwise the model's worst
    /// sample latency (the delay batching adds).
    public var maxDelayS: Double?
    /// Fraction of every selected chip's FIFO that one latency period must leave free (0 ≤ m < 1),
    /// for the sensor's clock tolerance and the time the host takes to serve the interrupt.
    public var fifoMargin: Double
    /// The analyses' minimum rates (MotionAnalysis's `AnalysisRequirement.all`).
    public var requirements: [AnalysisRequirement]
    /// Which chips are judged and what decided it (`--chips`, the recording's device, or every
    /// built-in chip), said in the reasons; nil: not said.
    public var chipSource: String?

    /// The default FIFO margin: 20 % of the FIFO kept free.
    public static let defaultFIFOMargin = 0.2

    /// Creates constraints.
    public init(maxDelayS: Double? = nil, fifoMargin: Double = defaultFIFOMargin, requirements: [AnalysisRequirement] = [],
                chipSource: String? = nil) {
        self.maxDelayS = maxDelayS
        self.fifoMargin = fifoMargin
        self.requirements = requirements
        self.chipSource = chipSource
    }

    /// The highest of the analyses' minimum rates (Hz); 0 without requirements.
    public var minimumRateHz: Double { requirements.map(\.minimumRateHz).max() ?? 0 }
}

/// One way a setting fails the constraints.
public struct ConstraintViolation: Hashable, Sendable {
    /// Which constraint.
    public enum Kind: Hashable, Sendable {
        /// `--max-delay`.
        case maxDelay
        /// A selected chip's FIFO does not keep the margin free.
        case fifo(chip: String)
        /// The rate is below an analysis's minimum.
        case minimumRate(analysis: String)
    }

    /// The constraint violated.
    public var kind: Kind
    /// The figures, in words (`worst step visible after 12.1 s > 5 s`).
    public var detail: String

    /// The constraint's name in JSON: `max_delay`, `fifo:<chip>`, `minimum_rate:<analysis>`.
    public var key: String {
        switch kind {
        case .maxDelay: return "max_delay"
        case .fifo(let chip): return "fifo:\(chip)"
        case .minimumRate(let analysis): return "minimum_rate:\(analysis)"
        }
    }
}

/// One swept setting judged against the constraints.
public struct CandidateAssessment: Hashable, Sendable {
    /// The model's figures for the setting.
    public var prediction: WakeCostPrediction
    /// The replay at the setting, when a recording was given.
    public var replay: ConfigurationReplay?
    /// The delay compared with `--max-delay` (s).
    public var delayS: Double
    /// What ``delayS`` measures (`step visibility (replay)`, `worst sample latency (model)`).
    public var delayMeasure: String
    /// Every constraint the setting fails; empty when it is acceptable.
    public var violations: [ConstraintViolation]

    /// Whether the setting meets every constraint.
    public var isAcceptable: Bool { violations.isEmpty }

    /// Whether the recording was replayed at this very rate (within 0.1 %); false for a rate judged
    /// on the model alone or through the replay at the recording's own, lower rate.
    public var isReplayed: Bool {
        guard let r = replay else { return false }
        return abs(r.replayedRateHz - prediction.configuration.rateHz) <= prediction.configuration.rateHz * 0.001
    }
}

/// The longest latency every selected chip holds with the margin, at one rate.
public struct FIFOLimit: Hashable, Sendable {
    /// The chip with the smallest limit.
    public var chip: String
    /// capacity × (1 − margin) / rate for that chip (s).
    public var latencyS: Double
}

/// The cheapest swept setting that meets the constraints, and why. A pure function of the
/// predictions, the replays and the constraints.
public struct Recommendation: Hashable, Sendable {
    /// The constraints applied.
    public var constraints: RecommendationConstraints
    /// Every swept setting, cheapest (least energy above idle) first.
    public var candidates: [CandidateAssessment]
    /// The recommended setting; nil when none meets the constraints.
    public var chosen: CandidateAssessment?
    /// Why no cheaper setting was taken: the violations of the next longer latency at the chosen
    /// rate, then of the cheaper settings at lower rates (one per constraint); if neither exists,
    /// those of the nearest cheaper setting. Empty when the chosen setting is the cheapest swept.
    /// Without a choice: one violation per constraint over every setting.
    public var binding: [ConstraintViolation]
    /// At the chosen rate with hardware buffering: the longest latency every chip holds.
    public var fifoLimit: FIFOLimit?
    /// The swept setting with the smallest delay (among the replayed ones when a recording was
    /// replayed: what the analyses need at best); nil without candidates.
    public var smallestDelay: CandidateAssessment?
    /// Whether a recording was replayed (some setting has a replay).
    public var hasReplays: Bool

    /// Whether `--max-delay` is below the smallest delay any swept setting reaches.
    public var maxDelayUnreachable: Bool {
        guard let limit = constraints.maxDelayS, let s = smallestDelay else { return false }
        return limit < s.delayS
    }

    /// Judges every prediction and picks the cheapest acceptable one.
    ///
    /// Cost is energy above idle per hour (equivalently battery life: the idle draw is the same
    /// for every setting); ties go to the shorter delay, then the lower rate. A setting is
    /// acceptable when its rate is at least every analysis's minimum, every selected chip's FIFO
    /// keeps `fifoMargin` free, and its delay (replayed visibility when `replays` has the
    /// setting, else the model's worst sample latency) is within `maxDelayS`.
    /// - Complexity: O(n log n + n × chips) for n predictions.
    public static func recommend(predictions: [WakeCostPrediction], replays: [ConfigurationReplay] = [],
                                 constraints: RecommendationConstraints) -> Recommendation {
        var candidates = predictions.map { p in
            assess(p, replay: replays.first { $0.rateHz == p.configuration.rateHz && $0.latencyS == p.configuration.latencyS },
                   constraints: constraints)
        }
        candidates.sort { a, b in
            let ea = a.prediction.energyJPerHour, eb = b.prediction.energyJPerHour
            if ea != eb { return ea < eb }
            if a.delayS != b.delayS { return a.delayS < b.delayS }
            return a.prediction.configuration.rateHz < b.prediction.configuration.rateHz
        }
        let chosenIndex = candidates.firstIndex { $0.isAcceptable }
        let chosen = chosenIndex.map { candidates[$0] }
        let cheaper = candidates[..<(chosenIndex ?? candidates.count)]
        var binding: [ConstraintViolation] = []
        func add(_ c: CandidateAssessment) {
            for v in c.violations where !binding.contains(where: { $0.kind == v.kind }) { binding.append(v) }
        }
        if let chosen {
            let rate = chosen.prediction.configuration.rateHz, latency = chosen.prediction.configuration.latencyS
            // What stops a longer latency at the chosen rate, then what stops each lower rate.
            if let next = cheaper.filter({ $0.prediction.configuration.rateHz == rate && $0.prediction.configuration.latencyS > latency })
                .min(by: { $0.prediction.configuration.latencyS < $1.prediction.configuration.latencyS }) { add(next) }
            for c in cheaper where c.prediction.configuration.rateHz < rate { add(c) }
            if binding.isEmpty, let first = cheaper.last { add(first) }
        } else {
            for c in cheaper { add(c) }
        }
        var limit: FIFOLimit?
        if let p = chosen?.prediction, p.configuration.buffering == .hardware,
           let tightest = p.fifo.min(by: { $0.fullAfterS < $1.fullAfterS }) {
            limit = FIFOLimit(chip: tightest.chip, latencyS: tightest.fullAfterS * (1 - constraints.fifoMargin))
        }
        let replayed = candidates.filter { $0.replay != nil }
        let smallest = (replayed.isEmpty ? candidates : replayed).min { $0.delayS < $1.delayS }
        return Recommendation(constraints: constraints, candidates: candidates, chosen: chosen, binding: binding, fifoLimit: limit,
                              smallestDelay: smallest, hasReplays: !replayed.isEmpty)
    }

    /// When `--max-delay` is below every swept setting's delay: the plain statement with the
    /// smallest achievable delay and where it is reached.
    var unreachableSentence: String? {
        guard maxDelayUnreachable, let limit = constraints.maxDelayS, let s = smallestDelay else { return nil }
        let what = hasReplays ? "what the analyses need at any latency" : "every swept setting's delay"
        return "--max-delay \(NumberFormat.json(limit)) s is below \(what): the smallest achievable delay is \(NumberFormat.seconds(s.delayS)) s "
            + "(\(s.delayMeasure) at \(NumberFormat.json(s.prediction.configuration.rateHz)) Hz, latency \(NumberFormat.json(s.prediction.configuration.latencyS)) s)."
    }

    /// Violations in words, FIFO chips grouped: `max delay (...); FIFO: A full after 2.56 s < 5 s, B ...`.
    static func summary(_ violations: [ConstraintViolation]) -> String {
        var parts: [String] = []
        let fifo = violations.filter { if case .fifo = $0.kind { return true } else { return false } }
        for v in violations {
            switch v.kind {
            case .maxDelay: parts.append("--max-delay (\(v.detail))")
            case .minimumRate: parts.append("minimum rate (\(v.detail))")
            case .fifo: if v == fifo.first { parts.append("FIFO (" + fifo.map(\.detail).joined(separator: ", ") + ")") }
            }
        }
        return parts.joined(separator: "; ")
    }

    /// One setting against the constraints.
    static func assess(_ p: WakeCostPrediction, replay: ConfigurationReplay?, constraints: RecommendationConstraints) -> CandidateAssessment {
        let (delay, measure) = replay?.limitingDelay ?? (p.worstLatencyS, "worst sample latency (model)")
        var violations: [ConstraintViolation] = []
        let rate = p.configuration.rateHz
        for r in constraints.requirements where rate < r.minimumRateHz {
            violations.append(ConstraintViolation(kind: .minimumRate(analysis: r.analysis),
                                                  detail: "\(NumberFormat.json(rate)) Hz < the \(r.analysis)'s minimum \(NumberFormat.json(r.minimumRateHz)) Hz"))
        }
        for v in p.fifo where !v.fits(margin: constraints.fifoMargin) {
            let detail = v.fits
                ? "\(v.chip) \(NumberFormat.fixed(v.fillFraction * 100, 1)) % full, above \(NumberFormat.fixed((1 - constraints.fifoMargin) * 100, 0)) % (margin \(NumberFormat.fixed(constraints.fifoMargin * 100, 0)) %)"
                : "\(v.chip) full after \(NumberFormat.seconds(v.fullAfterS)) s < \(NumberFormat.json(p.configuration.latencyS)) s latency"
            violations.append(ConstraintViolation(kind: .fifo(chip: v.chip), detail: detail))
        }
        if let limit = constraints.maxDelayS, delay > limit {
            violations.append(ConstraintViolation(kind: .maxDelay, detail: "\(measure) \(NumberFormat.precise(delay)) s > \(NumberFormat.json(limit)) s"))
        }
        return CandidateAssessment(prediction: p, replay: replay, delayS: delay, delayMeasure: measure, violations: violations)
    }

    /// The explanation, one sentence per line: the choice, the rate, the delay, the FIFO, what
    /// binds, and how far the latency could go.
    public var reasons: [String] {
        guard let c = chosen else {
            var out = ["No swept setting meets the constraints."]
            if let s = unreachableSentence { out.append(s) }
            out.append("Rejected by: " + Self.summary(binding) + ".")
            if let chips = constraints.chipSource { out.append("Chips: \(chips).") }
            return out
        }
        let p = c.prediction, rate = p.configuration.rateHz, latency = p.configuration.latencyS
        var out = ["Cheapest swept setting that meets every constraint: \(NumberFormat.json(rate)) Hz, latency \(NumberFormat.json(latency)) s "
                   + "(\(NumberFormat.fixed(p.energyJPerHour, 3)) J/h above idle, battery \(NumberFormat.fixed(p.batteryLifeH, 2)) h)."]
        if constraints.requirements.isEmpty {
            out.append("Rate: no analysis minimum applied.")
        } else {
            let list = constraints.requirements.map { "\($0.analysis) \(NumberFormat.json($0.minimumRateHz)) Hz" }.joined(separator: ", ")
            out.append("Rate: at least \(NumberFormat.json(constraints.minimumRateHz)) Hz, the analyses' minimum (\(list)).")
        }
        if let limit = constraints.maxDelayS {
            out.append("Delay: \(c.delayMeasure) \(NumberFormat.seconds(c.delayS)) s, within --max-delay \(NumberFormat.json(limit)) s.")
        } else {
            out.append("Delay: no --max-delay given; \(c.delayMeasure) is \(NumberFormat.seconds(c.delayS)) s.")
        }
        if p.configuration.buffering == .hardware, !p.configuration.isPerSample, let fullest = p.fifo.max(by: { $0.fillFraction < $1.fillFraction }) {
            out.append("FIFO: every selected chip keeps \(NumberFormat.fixed(constraints.fifoMargin * 100, 0)) % free (fullest: \(fullest.chip) at \(NumberFormat.fixed(fullest.fillFraction * 100, 0)) %).")
        }
        let perSampleDrivers = p.fifo.filter { !$0.linuxBatches }.map(\.chip)
        if p.configuration.buffering == .hardware, !perSampleDrivers.isEmpty {
            out.append("Note: the mainline Linux drivers of \(perSampleDrivers.joined(separator: ", ")) read every sample on its own interrupt; "
                       + "their hardware-buffering figures assume a driver that batches (else use --buffering timed).")
        }
        if hasReplays && !c.isReplayed {
            if let r = c.replay {
                out.append("Not replayed at \(NumberFormat.json(rate)) Hz: the recording is \(NumberFormat.fixed(r.replayedRateHz, 1)) Hz, so its delays are "
                           + "the replay at \(NumberFormat.fixed(r.replayedRateHz, 1)) Hz and its costs the model's.")
            } else {
                out.append("Model only: \(NumberFormat.json(rate)) Hz was not replayed; its delay is the model's worst sample latency, "
                           + "without the analyses' own hold that the replayed settings measure.")
            }
        }
        if let chips = constraints.chipSource { out.append("Chips: \(chips).") }
        if binding.isEmpty {
            out.append("Nothing binds: it is the cheapest setting swept; longer latencies may save more.")
        } else {
            out.append("Binds: " + Self.summary(binding) + ".")
        }
        if let f = fifoLimit {
            var limit = f.latencyS
            var sentence = "Longest latency every chip holds at \(NumberFormat.json(rate)) Hz with the margin: \(NumberFormat.seconds(f.latencyS)) s (\(f.chip))"
            if let maxDelay = constraints.maxDelayS {
                if c.replay == nil {
                    let byDelay = maxDelay - (p.worstLatencyS - latency)
                    limit = min(limit, byDelay)
                    sentence += "; --max-delay allows about \(NumberFormat.seconds(byDelay)) s"
                } else {
                    sentence += "; the replay decides what --max-delay allows"
                }
            }
            if limit > latency * 1.01 {
                sentence += ": a latency between \(NumberFormat.json(latency)) s and \(NumberFormat.seconds(limit)) s may cost less (add it to --latencies)"
            }
            out.append(sentence + ".")
        }
        return out
    }
}
