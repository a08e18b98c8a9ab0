/// Step times below the counter's 40 ms grid: the time of a band-passed peak refined by a
/// parabola through the peak's grid value and its two neighbours, and a small record of the
/// newest candidates' refinements by their grid times.
///
/// The counter's rhythm logic (merging, runs, periods) decides on grid times only, so the count
/// is exactly what it was without refinement; only the reported times (and the cadence computed
/// from them) move, by at most half a grid period. Storage is inline (no allocation).
struct StepPeakRefinement: Sendable {
    /// How many candidates are remembered: 32 candidates at least 0.28 s apart span 9 s, more
    /// than the counter ever looks back (the 2.2 s hold, 2.5 step periods of at most 2 s).
    static let capacity = 32
    private var times = InlineTimes()
    private var offsets = InlineTimes()
    private var next = 0
    private var filled = 0

    /// Creates an empty record.
    init() {}

    /// The offset (ns) of the vertex of the parabola through `before`, `peak` and `after`, three
    /// consecutive grid values `period` ns apart with `peak` the largest, from the peak's grid time;
    /// within ±period/2 (0 for a flat top).
    /// - Complexity: O(1).
    static func offset(before a: Double, peak b: Double, after c: Double, period: Int64) -> Int64 {
        let curvature = a - 2 * b + c
        guard curvature < 0, curvature.isFinite else { return 0 }
        let delta = Swift.max(-0.5, Swift.min(0.5, 0.5 * (a - c) / curvature))
        return Int64((delta * Double(period)).rounded())
    }

    /// Remembers the refinement of the candidate at grid time `time`, replacing the oldest.
    mutating func record(time: Int64, offset: Int64) {
        times[next] = time
        offsets[next] = offset
        next = (next + 1) % Self.capacity
        filled = Swift.min(filled + 1, Self.capacity)
    }

    /// The refined time of the candidate at grid time `time` (the newest with that time); `time`
    /// itself when it is not remembered.
    /// - Complexity: O(``capacity``).
    func refined(_ time: Int64) -> Int64 {
        var k = 0
        while k < filled {
            let slot = (next - 1 - k + Self.capacity) % Self.capacity
            if times[slot] == time { return time + offsets[slot] }
            k += 1
        }
        return time
    }
}

/// 32 `Int64` values stored inline, indexed 0..<32.
struct InlineTimes: Sendable {
    private var storage: (SIMD16<Int64>, SIMD16<Int64>) = (.zero, .zero)

    /// The value at `i` (0..<32).
    subscript(i: Int) -> Int64 {
        get {
            assert(i >= 0 && i < 32)
            return i < 16 ? storage.0[i] : storage.1[i - 16]
        }
        set {
            assert(i >= 0 && i < 32)
            if i < 16 { storage.0[i] = newValue } else { storage.1[i - 16] = newValue }
        }
    }
}
