import MotionCore

/// A recording replayed at every sampling rate × delivery latency in one pass over the file (after
/// a first pass that measures its own rate): what `motionbatch wakes RECORDING` reports. Rates below
/// the recording's own mean rate are produced by ``MotionCore/RateDecimator`` (what a sensor at that
/// rate would have delivered); rates at or above it replay the recording as is, once, labelled with
/// its own mean rate. Memory does not grow with the file.
public enum ReplaySweep {
    /// One configuration's replay.
    public struct Run {
        /// The rate replayed (Hz): the requested one, or the recording's own mean rate.
        public var rateHz: Double
        /// The latency replayed (s).
        public var latencyS: Double
        /// The finished session: deliveries, sample delays, the pipeline's results and visibility.
        public var session: ReplaySession
    }

    /// A requested rate is the recording's own when within 0.1 % below it, or above it.
    static let ownRateTolerance = 0.999

    /// Replays `path` at every rate × latency (rate-major order), each through a fresh pipeline.
    /// - Parameter makePipeline: builds one pipeline from the recording's header (called once per
    ///   configuration; a decimated configuration's header declares the decimated rate).
    /// - Throws: as ``RecordingReplay/run(path:transform:progress:sessions:)``; a ``MotionCore/RecordingError``
    ///   when the recording has fewer than two samples (it has no rate).
    /// - Precondition: rates are finite and positive, latencies finite and not negative.
    public static func run(path: String, rates: [Double], latencies: [Double],
                           makePipeline: (RecordingHeader) throws -> AnalysisPipeline) throws -> [Run] {
        try run(open: { try RecordingReader(path: path) }, rates: rates, latencies: latencies, makePipeline: makePipeline)
    }

    /// ``run(path:rates:latencies:makePipeline:)`` of the recording `open` reads (called twice:
    /// each call must read the recording from its start). `progress` gets the pass (1: the rate
    /// scan, 2: the sweep) and the input bytes read in it.
    public static func run(open: () throws -> RecordingReader, rates: [Double], latencies: [Double],
                           progress: (_ pass: Int, _ bytes: Int) -> Void = { _, _ in },
                           makePipeline: (RecordingHeader) throws -> AnalysisPipeline) throws -> [Run] {
        let native = try ownRate(try open(), progress: { progress(1, $0) })
        var plan: [(rate: Double, decimate: Bool)] = []
        for r in rates {
            if r >= native * ownRateTolerance {
                if !plan.contains(where: { !$0.decimate }) { plan.append((native, false)) }
            } else {
                plan.append((r, true))
            }
        }
        let configurations = plan.flatMap { p in latencies.map { (p.rate, p.decimate, $0) } }
        let replay = try RecordingReplay.run(reader: try open(), progress: { progress(2, $0) }) { header in
            try configurations.map { rate, decimate, latency in
                ReplaySession(policy: .latency(seconds: latency), pipeline: try makePipeline(decimate ? decimated(header, to: rate) : header),
                              decimatingTo: decimate ? rate : nil, labelled: header.hasLabels)
            }
        }
        return zip(configurations, replay.sessions).map { c, s in Run(rateHz: c.0, latencyS: c.2, session: s) }
    }

    /// The header of the recording as a sensor at `rate` would have written it: it declares that
    /// rate (`actual_hz`), so that analyzers judge gaps by the decimated period.
    static func decimated(_ header: RecordingHeader, to rate: Double) -> RecordingHeader {
        var h = header
        h.metadata[RecordingKey.actualHz] = rate.compactText
        return h
    }

    /// The recording's mean rate (Hz), (samples − 1) / duration, from a first streaming pass.
    static func ownRate(_ reader: RecordingReader, progress: (Int) -> Void = { _ in }) throws -> Double {
        let path = reader.path
        var pipeline = AnalysisPipeline()
        let stream = pipeline.add(StreamStatisticsAnalyzer())
        let scan = try RecordingReplay.run(reader: reader, progress: progress) { header in
            [ReplaySession(policy: .samples(RecordingReplay.chunkSamples), pipeline: pipeline, labelled: header.hasLabels)]
        }
        guard let rate = scan.sessions[0].pipeline.result(of: stream).effectiveRateHz else {
            throw RecordingError(file: path, line: nil, problem: "fewer than two samples (or no time between them): the recording has no rate to replay")
        }
        return rate
    }

    /// Whether, for each rate, every latency's results equal the others' (different rates see
    /// different samples, so they are compared only among themselves).
    public static func identicalWithinRates(_ runs: [Run]) -> Bool {
        var byRate: [Double: PipelineResults] = [:]
        for r in runs {
            let results = r.session.pipeline.results
            if let first = byRate[r.rateHz] { if first != results { return false } } else { byRate[r.rateHz] = results }
        }
        return true
    }
}
