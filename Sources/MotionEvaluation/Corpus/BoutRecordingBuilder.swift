import MotionCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the bout test of issue 17 from real data: a walk with per-step truth (an Oxford
/// recording and its foot-switch times) is cut into bouts of 4–20 consecutive steps, and real
/// still pieces (``StillSegmentPool``) are put between them, so that every bout starts and ends
/// with standing still, as walking around a home or office does.
///
/// How a bout recording is made (deterministic, no randomness):
/// - The walk's first ``skippedSteps`` and last ``skippedSteps`` true steps are not used; the
///   rest are cut into consecutive bouts whose lengths run through ``boutLengths`` in a fixed
///   order (`4 + 7·(i + 3·w) mod 17` for bout `i` of walk `w`: every length of 4–20 once per 17
///   bouts). A bout of steps k…k+n−1 is the walk's samples from half-way between steps k−1 and k
///   to half-way between steps k+n−1 and k+n: it holds exactly its n steps.
/// - Before every bout and after the last one, a still piece of a duration from
///   ``pauseSeconds`` (in turn, shifted by the walk's index) is taken from the pool. Still pieces
///   are resampled onto the walk's median sample interval by linear interpolation (the sources
///   run at 12.5, 26 and 50 Hz, the walks at about 200 Hz) and turned by ``GravityAlignment`` so
///   that their mean acceleration vector equals the walk's.
/// - The walk's motion (acceleration minus its mean vector) is faded in over the first and out
///   over the last ``rampSeconds`` of every bout (raised cosine), so a bout starts and ends
///   without a jump.
/// - The recording's clock starts at 0; the walk's own sample spacing is kept inside bouts.
public enum BoutRecordingBuilder {
    /// Bout lengths, steps.
    public static let boutLengths = 4...20
    /// Pause durations, seconds, used in turn: from a short stop (2.5 s, longer than the step
    /// counter's end-of-walk gap at any cadence) to 20 s.
    public static let pauseSeconds: [Double] = [2.5, 4, 6, 9, 13, 20]
    /// True steps left out at each end of a walk (walk start and end are not bouts' business).
    public static let skippedSteps = 2
    /// Fade of the walk's motion at a bout's ends, seconds.
    public static let rampSeconds = 0.25

    /// The length of bout `i` of walk `w`.
    static func boutLength(walk w: Int, bout i: Int) -> Int {
        boutLengths.lowerBound + (7 * (i + 3 * w)) % boutLengths.count
    }

    /// The bout recording of one walk.
    /// - Parameters:
    ///   - walk: the walk's samples (time order, at least two).
    ///   - truth: its true step times (ns, increasing, on the samples' clock).
    ///   - walkIndex: its index among the walks (shifts the length and pause schedules).
    ///   - pool: still pieces, consumed in turn.
    /// - Returns: the samples, the bouts and every bout step's true time (on the new clock), or nil when the pool has no piece long enough or the
    ///   walk has too few steps for one bout.
    public static func build(walk: [Sample], truth: [Int64], walkIndex: Int,
                             pool: inout StillSegmentPool) -> (samples: [Sample], bouts: [StepBout], truth: [Int64])? {
        guard walk.count >= 2 else { return nil }
        guard let g = MeanAcceleration.of(walk), g.magnitude > 0 else { return nil }
        var intervals = zip(walk.dropFirst(), walk).map { $0.timestamp - $1.timestamp }
        intervals.sort()
        let dt = Swift.max(intervals[intervals.count / 2], 1)
        let ramp = Int64(rampSeconds * 1e9)

        var out: [Sample] = []
        out.reserveCapacity(walk.count * 2)
        var bouts: [StepBout] = []
        var times: [Int64] = []
        var t: Int64 = 0
        var pause = walkIndex

        func appendStill() -> Bool {
            let duration = Int64(pauseSeconds[pause % pauseSeconds.count] * 1e9)
            pause += 1
            guard let piece = pool.take(duration: duration) else { return false }
            guard let gs = MeanAcceleration.of(piece.samples), gs.magnitude > 0 else { return false }
            let align = GravityAlignment(from: gs, to: g)
            let p = Array(piece.samples)
            let t0 = p[0].timestamp
            var j = 0
            var q: Int64 = 0
            while q <= duration {
                let at = t0 + q
                while j + 1 < p.count && p[j + 1].timestamp <= at { j += 1 }
                let a: Vector3
                if j + 1 < p.count && p[j].timestamp < at {
                    let f = Double(at - p[j].timestamp) / Double(p[j + 1].timestamp - p[j].timestamp)
                    let x = p[j].accel, y = p[j + 1].accel
                    a = Vector3(x.x + f * (y.x - x.x), x.y + f * (y.y - x.y), x.z + f * (y.z - x.z))
                } else {
                    a = p[j].accel
                }
                out.append(Sample(timestamp: t, accel: align.apply(a)))
                t += dt
                q += dt
            }
            return true
        }

        var k = skippedSteps
        var boutIndex = 0
        while true {
            let n = boutLength(walk: walkIndex, bout: boutIndex)
            guard k >= 1, k + n + skippedSteps <= truth.count else { break }
            let cutStart = truth[k - 1] + (truth[k] - truth[k - 1]) / 2
            let cutEnd = truth[k + n - 1] + (truth[k + n] - truth[k + n - 1]) / 2
            let from = walk.firstIndex(atOrAfter: cutStart), to = walk.firstIndex(atOrAfter: cutEnd + 1)
            k += n
            boutIndex += 1
            guard to - from >= 2 else { continue }
            guard appendStill() else { return nil }
            let origin = walk[from].timestamp
            let start = t
            for s in walk[from..<to] {
                let u = s.timestamp - origin, v = walk[to - 1].timestamp - s.timestamp
                let w = fade(Swift.min(u, v), ramp: ramp)
                let a = s.accel
                out.append(Sample(timestamp: start + u, accel: Vector3(g.x + w * (a.x - g.x), g.y + w * (a.y - g.y), g.z + w * (a.z - g.z))))
            }
            let end = out[out.count - 1].timestamp
            bouts.append(StepBout(start: start, end: end, truth: n))
            for step in truth[(k - n)..<k] { times.append(start + step - origin) }
            t = end + dt
        }
        guard !bouts.isEmpty, appendStill() else { return nil }
        return (out, bouts, times)
    }

    /// The raised-cosine fade at `d` ns from a bout's nearer end: 0 at the end, 1 from `ramp` on.
    static func fade(_ d: Int64, ramp: Int64) -> Double {
        guard d < ramp else { return 1 }
        return 0.5 - 0.5 * cos(Double.pi * Double(d) / Double(ramp))
    }
}
