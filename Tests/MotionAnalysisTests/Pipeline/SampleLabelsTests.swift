import MotionAnalysis
import MotionTestSupport
import Testing

/// Labels as runs: appending, looking up, and handing the first n over to a delivery.
struct SampleLabelsTests {
    @Test func runsMergeEqualNeighbours() {
        let l = SampleLabels(["a", "a", nil, nil, "b", "a"])
        #expect(l.runs == [.init(start: 0, label: "a"), .init(start: 2, label: nil), .init(start: 4, label: "b"), .init(start: 5, label: "a")])
        #expect(l.count == 6)
        #expect((0..<6).map { l.label(at: $0) } == ["a", "a", nil, nil, "b", "a"])
    }

    /// Random labels cut at random points: each removed head and the rest expand to the right labels.
    @Test(arguments: [1, 2, 3, 4])
    func removingTheFirstNKeepsEveryLabel(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        let alphabet: [String?] = ["walk", "sit", nil]
        var all: [String?] = []
        for _ in 0..<300 { let l = alphabet[Int.random(in: 0..<3, using: &g)]; for _ in 0..<Int.random(in: 1...9, using: &g) { all.append(l) } }
        var pending = SampleLabels(all)
        var taken: [String?] = []
        while pending.count > 0 {
            let n = Int.random(in: 0...min(pending.count, 40), using: &g)
            let head = pending.removeFirst(n)
            #expect(head.count == n)
            taken += head.labels
            #expect(pending.labels == Array(all[taken.count...]))
            // Both parts stay in canonical form: no empty run, no two neighbours with one label.
            #expect(head.runs == SampleLabels(head.labels).runs)
            #expect(pending.runs == SampleLabels(pending.labels).runs)
        }
        #expect(taken == all)
    }
}
