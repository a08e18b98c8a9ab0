import Testing
import MotionTestSupport
@testable import MotionCore

/// Parses `s` as the reader does (``CSVFieldScanner/scanDouble(_:in:nonDigits:)`` with the
/// classes from a block's bitmap), followed by `terminator` and then digits that must not be
/// consumed; returns the value and bytes consumed.
private func parseField(_ s: String, terminator: String = ",") -> (Double, Int)? {
    let bytes = Array((s + terminator + "98765432109876543210987654321098").utf8) + [UInt8](repeating: 0x37, count: 64)
    let block = RecordingByteBlock(capacity: bytes.count)
    block.copyIn(bytes)
    block.zeroSlack(after: bytes.count)
    block.classify(count: bytes.count)
    let view = block.paddedBytes(count: s.utf8.count)
    var c = view.start
    guard let v = CSVFieldScanner.scanDouble(&c, in: view, nonDigits: RecordingByteBlock.NonDigitBitmap(block)[0]) else { return nil }
    return (v, c - view.start)
}

@Suite struct CSVFieldScannerTests {
    /// The reader's field scanner (three-word fraction, selects instead of a digit loop) against the
    /// standard library, bit for bit, including where it stops, on the shapes writers produce
    /// (1-20 significant digits, leading zeros, signs) and on the shapes it hands to the general path.
    @Test func fieldScannerMatchesStandardLibraryAndStopsAtTheSeparator() {
        var rng = SplitMix64(seed: 21)
        var checked = 0
        for i in 0..<400_000 {
            var text = ["", "-", "", "+"][Int(rng.next() % 4)]
            let intDigits = [0, 1, 1, 1, 2, 3, 9, 12][Int(rng.next() % 8)]
            for _ in 0..<intDigits { text.append(Character(String(rng.next() % 10))) }
            if rng.next() % 16 != 0 {
                text += "."
                let zeros = rng.next() % 4 == 0 ? Int(rng.next() % 6) : 0
                text += String(repeating: "0", count: zeros)
                for _ in 0..<Int(rng.next() % 25) { text.append(Character(String(rng.next() % 10))) }
            }
            if i % 13 == 0 { text += ["e", "E", "e-", "e+"][i % 4] + "\(rng.next() % 30)" }
            if i % 3 == 0 {  // scaled sensor values printed shortest (16-17 significant digits)
                let scale = [0.000598550, 0.000152716, 0.0095768, 9.80665 / 16384][i % 4]
                text = (Double(Int16(truncatingIfNeeded: rng.next())) * scale).description
            }
            let terminator = ["\n", ",", "\r\n", "x"][i % 4]
            let reference = Double(text)
            let ours = parseField(text, terminator: terminator)
            if let reference, text != "+" && text != "-" {
                guard let (v, used) = ours, v.bitPattern == reference.bitPattern, used == text.utf8.count else {
                    Issue.record("\(text)\(terminator): \(String(describing: ours)) vs \(reference)")
                    return
                }
                checked += 1
            } else if let (v, used) = ours, used == text.utf8.count {
                Issue.record("\(text): accepted as \(v)")
                return
            }
        }
        #expect(checked > 350_000)
    }

    @Test(arguments: ["0.45489799999999997", "-0.15745019600000001", "0.0000000000000000012345678", "12345678901234567.8",
                      "1234567890123456789.0", "0.12345678901234567890", "-0.", "5.", ".5", "9007199254740993.0",
                      "0.9007199254740993", "1.7976931348623157e308", "00000000000000000000000001.5", "1.5e3", "2.e-3"])
    func fieldScannerEdgeCases(_ text: String) throws {
        let reference = try #require(Double(text))
        let (v, used) = try #require(parseField(text))
        #expect(v.bitPattern == reference.bitPattern, "\(text): \(v) vs \(reference)")
        #expect(used == text.utf8.count)
    }

    @Test(arguments: ["", "-", "+", ".", "-.", "e5", "nan", "inf", "-inf", " 1", "1..2"])
    func fieldScannerRejects(_ text: String) {
        if let (_, used) = parseField(text) { #expect(used != text.utf8.count, "\(text) accepted") }
    }

    /// Eisel–Lemire (mantissas above 2^53, exponents -1...-19) against the standard library, bit
    /// for bit, including exact ties between two doubles (round to even) and their neighbours.
    @Test func eiselLemireMatchesStandardLibrary() {
        var rng = SplitMix64(seed: 29)
        for i in 0..<200_000 {
            let k = Int(rng.next() % 19) + 1
            var m = rng.next() % 10_000_000_000_000_000_000
            if i % 2 == 0 { m = (1 << 53) + rng.next() % ((1 << 63) - (1 << 53)) }
            if m == 0 { continue }
            let reference = Double("\(m)e-\(k)")!
            let ours = CSVFieldScanner.eiselLemire(m, negativeExponent: k)
            guard ours.bitPattern == reference.bitPattern else {
                Issue.record("\(m)e-\(k): \(ours) vs \(reference)")
                return
            }
        }
        // Ties: odd / 2^k with a 54-bit odd numerator is exactly halfway between two doubles, and
        // equals m × 10^-k for m = odd × 5^k (fits in 64 bits for k <= 4).
        for k in 1...4 {
            var five: UInt64 = 1
            for _ in 0..<k { five *= 5 }
            for j in UInt64(0)..<2000 {
                let tie = ((1 << 53) + 2 * j + 1) * five
                for m in [tie, tie + 1, tie - 1] {
                    let reference = Double("\(m)e-\(k)")!
                    #expect(CSVFieldScanner.eiselLemire(m, negativeExponent: k).bitPattern == reference.bitPattern, "\(m)e-\(k)")
                }
            }
        }
    }
}
