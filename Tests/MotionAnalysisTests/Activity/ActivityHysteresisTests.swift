@testable import MotionAnalysis
import Testing

/// The hysteresis fed window evidence directly (no signal): how soon a walk is announced
/// (``ActivityClassifierConfiguration/walkingEntrySeconds``) and how a walk ends when its gait
/// stops and nothing else shows (``ActivityClassifierConfiguration/gaitLostSeconds``).
struct ActivityHysteresisTests {
    static let hop: Int64 = 400_000_000
    static let second: Int64 = 1_000_000_000

    /// Evidence whose memberships are `m` for `c` and 0 for the others but `unknown` (1 − m).
    static func evidence(_ c: ActivityClass, _ m: Double = 1) -> ActivityEvidence {
        let f = ActivityFeatures(gravity: 9.81, vertical: 0, horizontal: 0, motion: 0, floor: 0, tilt: 0,
                                 periodicity: 0, periodSeconds: 0, rotation: nil)
        var e = ActivityEvidence(f, ActivityClassifierConfiguration())
        var mem = SIMD8<Double>()
        mem[c.index] = m
        if c != .unknown { mem[ActivityClass.unknown.index] = 1 - m }
        e.memberships = mem
        return e
    }

    /// Feeds windows ending at 4 s, 4.4 s, ... (centre 2 s before the end), one per class in
    /// `classes`; returns the hysteresis and the window index of each change with its event time.
    static func run(_ classes: [ActivityClass], configuration: ActivityClassifierConfiguration = ActivityClassifierConfiguration())
        -> (ActivityHysteresis, [(window: Int, at: Int64)]) {
        var h = ActivityHysteresis(configuration: configuration)
        h.start(at: 0)
        var changes: [(Int, Int64)] = []
        for (i, c) in classes.enumerated() {
            let end = 4 * second + Int64(i) * hop
            h.extend(to: end)
            if let at = h.observe(center: end - 2 * second, end: end, evidence(c)) { changes.append((i, at)) }
        }
        return (h, changes)
    }

    @Test(arguments: [(0.8, 1), (1.2, 2), (2.0, 4)])
    func walkingIsAnnouncedAfterItsEntryEvidence(entry: Double, window: Int) throws {
        var c = ActivityClassifierConfiguration()
        c.walkingEntrySeconds = entry
        #expect(c.enterSeconds[ActivityClass.still.index][ActivityClass.walking.index] == entry)
        #expect(c.enterSeconds[ActivityClass.unknown.index][ActivityClass.walking.index] == entry)
        let (h, changes) = Self.run(Array(repeating: .walking, count: 8), configuration: c)
        // Each clear window adds one hop (0.4 s) of evidence.
        #expect(changes.count == 1 && changes[0].window == window, "\(changes)")
        #expect(h.current == .walking)
    }

    @Test func theDefaultAnnouncesAWalkOnItsSecondClearWindow() {
        let (_, changes) = Self.run([.walking, .walking, .walking])
        #expect(changes.map(\.window) == [1])
    }

    /// A walk followed by windows that are none of the classes (`unknown`, too few to change to
    /// it) and by doubtful still windows (evidence that decays): without the gait-lost rule it would
    /// stay `walking`; it ends `gaitLostSeconds` after the last gait window, back-dated to the
    /// centre of the first window without gait.
    @Test func aWalkWhoseGaitStopsEndsAsUnknown() throws {
        var c = ActivityClassifierConfiguration()
        c.gaitLostSeconds = 6
        // Alternating unknown and still windows: neither gathers its evidence (still needs 3 s of
        // evidence and loses 0.2 s per other window; unknown 6 s).
        let mixed: [ActivityClass] = (0..<40).map { $0 % 2 == 0 ? .unknown : .still }
        let walk = Array(repeating: ActivityClass.walking, count: 10)
        let (h, changes) = Self.run(walk + mixed, configuration: c)
        #expect(changes.count == 2, "\(changes)")
        let lastGaitEnd = 4 * Self.second + 9 * Self.hop
        let firstWithout = lastGaitEnd + Self.hop - 2 * Self.second
        // Decided at the first window ending 6 s or more after the last gait window.
        #expect(changes[1].window == 10 + 14 && changes[1].at == firstWithout, "\(changes)")
        let segments = h.segments
        #expect(segments.map(\.label) == [.unknown, .walking, .unknown], "\(segments)")
        #expect(segments[2].start == firstWithout)
    }

    /// A window takes evidence from a class only as far as it speaks against it: a still run
    /// broken by two windows that favour a vehicle while still 75 % still (a quiet body's
    /// vibration) keeps its start, and the still segment is back-dated to the first calm window's
    /// start (here the stream's start, as the first window speaks for the stretch before it);
    /// with windows that are not still at all the run restarts after them.
    @Test(arguments: [(0.75, true), (0.0, false)])
    func aDoubtfulContraryWindowDoesNotRestartARun(stillInBetween: Double, keepsStart: Bool) throws {
        var h = ActivityHysteresis(configuration: ActivityClassifierConfiguration())
        h.start(at: 0)
        var mixed = Self.evidence(.vehicle)
        mixed.memberships[ActivityClass.still.index] = stillInBetween
        mixed.memberships[ActivityClass.unknown.index] = 0
        let windows = [Self.evidence(.still, 0.75), mixed, mixed] + Array(repeating: Self.evidence(.still), count: 20)
        var changes: [Int64] = []
        for (i, e) in windows.enumerated() {
            let end = 4 * Self.second + Int64(i) * Self.hop
            h.extend(to: end)
            // The first window after a start speaks from the start (centre 0), as the classifier's does.
            if let at = h.observe(center: i == 0 ? 0 : end - 2 * Self.second, end: end, e) { changes.append(at) }
        }
        let still = try #require(h.segments.first { $0.label == .still })
        #expect(changes.count == 1)
        if keepsStart {
            #expect(still.start == 0 && h.segments.count == 1, "\(h.segments)")
        } else {
            // Restarted at the first window after the vehicle ones (ending at 5.2 s, centre 3.2 s):
            // back-dated to its start, 2 × centre − end = 1.2 s; `unknown` before it.
            #expect(still.start == 1_200_000_000 && h.segments.map(\.label) == [.unknown, .still], "\(h.segments)")
        }
    }

    /// An irregular walk whose windows alternate between gait and pedalling-like ones (a high
    /// floor without rhythm): a pedalling-like window wears pending walking evidence down, unless
    /// the gyroscope shows the device turning like a swinging limb (``ActivityEvidence/limbSwing``),
    /// which walking and pedalling share; then the walk is announced on its second gait window.
    @Test(arguments: [(0.0, 4), (1.0, 2)])
    func aPedallingLikeWindowWithALimbSwingKeepsPendingWalkingEvidence(limbSwing: Double, announcedAt: Int) {
        var h = ActivityHysteresis(configuration: ActivityClassifierConfiguration())
        h.start(at: 0)
        var pedalling = Self.evidence(.cycling)
        pedalling.limbSwing = limbSwing
        var changes: [Int] = []
        for i in 0..<8 {
            let end = 4 * Self.second + Int64(i) * Self.hop
            h.extend(to: end)
            if h.observe(center: end - 2 * Self.second, end: end, i % 2 == 0 ? Self.evidence(.walking) : pedalling) != nil { changes.append(i) }
        }
        // 0.4 s of evidence per gait window; without the swing, 0.5 × 0.4 s less per other window.
        #expect(changes == [announcedAt], "\(changes)")
        #expect(h.current == .walking)
    }

    @Test func gaitWithinTheLimitKeepsTheWalk() {
        var c = ActivityClassifierConfiguration()
        c.gaitLostSeconds = 6
        // A walking window every 4.8 s (12 windows) among the same mixed windows: the walk holds.
        let pattern = (0..<36).map { $0 % 12 == 0 ? ActivityClass.walking : $0 % 2 == 1 ? .unknown : .still }
        let (h, changes) = Self.run(Array(repeating: .walking, count: 4) + pattern, configuration: c)
        #expect(changes.count == 1)
        #expect(h.current == .walking)
    }

    @Test func anotherClassWithItsEvidenceWinsOverTheRule() {
        // Clear still windows after a walk: still (3 s of evidence) comes first, as before.
        let (h, changes) = Self.run(Array(repeating: .walking, count: 10) + Array(repeating: .still, count: 30))
        #expect(changes.count == 2 && h.current == .still, "\(changes)")
        #expect(changes[1].window == 10 + 7, "3 s of still evidence: the 8th still window")
        // A walk begins at the centre of its first window of gait; still at the start of its
        // first calm window (the window before it moved, so the calm began there, within a hop).
        let segments = h.segments
        #expect(segments.map(\.label) == [.unknown, .walking, .still])
        #expect(segments[1].start == 2 * Self.second, "centre of the first walking window (4 s long, ending at 4 s)")
        #expect(segments[2].start == 4 * Self.second, "start of the first still window (ending at 8 s)")
        #expect(changes[1].at == 4 * Self.second)
    }

    @Test func theParametersAreRangeChecked() {
        var c = ActivityClassifierConfiguration()
        #expect(throws: ActivityClassifierError.self) { try c.set("gaitLostSeconds", to: 0.5) }
        #expect(throws: ActivityClassifierError.self) { try c.set("gaitLostSeconds", to: .nan) }
        #expect(throws: ActivityClassifierError.self) { try c.set("walkingEntrySeconds", to: 0.2) }
        #expect(throws: ActivityClassifierError.self) { try c.set("walkingEntrySeconds", to: .infinity) }
        #expect(throws: Never.self) { try c.set("walkingEntrySeconds", to: 0.4) }
        #expect(c.walkingEntrySeconds == 0.4 && c.value(of: "walkingEntrySeconds") == 0.4)
        #expect(throws: Never.self) { try c.set("gaitLostSeconds", to: 30) }
        #expect(c.gaitLostSeconds == 30)
    }
}
