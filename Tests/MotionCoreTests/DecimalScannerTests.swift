import Testing
import MotionTestSupport
@testable import MotionCore

private func parse(_ s: String) -> Double? {
    var s = s
    return s.withUTF8 { DecimalScanner.parseDouble($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
}
private func parseInt(_ s: String) -> Int64? {
    var s = s
    return s.withUTF8 { DecimalScanner.parseInt64($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
}
private func parseSeconds(_ s: String) -> Int64? {
    var s = s
    return s.withUTF8 { DecimalScanner.parseSecondsAsNanoseconds($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
}

/// Parses `s` the way the reader does (padded mode): followed by a separator and then more digits,
/// which must not be consumed. Returns the value and the number of bytes consumed.
private func parsePadded(_ s: String, terminator: String = ",") -> (Double, Int)? {
    let bytes = Array((s + terminator + "98765432109876543210987654321098").utf8)
    let block = RecordingByteBlock(capacity: bytes.count)
    block.copyIn(bytes)
    block.zeroSlack(after: bytes.count)
    // The view ends after the number: the terminator and the digits after it are in the padding.
    let view = block.paddedBytes(count: s.utf8.count)
    var c = view.start
    guard let v = DecimalScanner.scanDouble(&c, in: view) else { return nil }
    return (v, c - view.start)
}

@Suite struct DecimalScannerTests {
    /// The reader's padded path (16-byte window, SWAR) against the standard library, bit for bit,
    /// including where the number stops.
    @Test func paddedPathMatchesStandardLibraryAndStopsAtTheSeparator() {
        var rng = SplitMix64(seed: 3)
        for i in 0..<300_000 {
            var text = ["", "-", "+"][Int(rng.next() % 3)]
            let intDigits = Int(rng.next() % 11)
            for _ in 0..<intDigits { text.append(Character(String(rng.next() % 10))) }
            if rng.next() % 5 != 0 {
                text += "."
                for _ in 0..<Int(rng.next() % 19) { text.append(Character(String(rng.next() % 10))) }
            }
            if i % 11 == 0 { text += "e\(Int(rng.next() % 40) - 20)" }
            let terminator = ["\n", ",", "\r", "x", "."][i % 5]
            let reference = Double(text)
            let ours = parsePadded(text, terminator: terminator)
            if let reference, text != "+" && text != "-" {
                // A lone "." or "-." is not a number in either parser.
                guard let (v, used) = ours else { Issue.record("\(text): rejected"); return }
                if terminator == "." && !text.contains(".") && !text.contains("e") {
                    continue  // "12." + "." : the first point belongs to the number; checked by the reader's separator test
                }
                guard v.bitPattern == reference.bitPattern, used == text.utf8.count else {
                    Issue.record("\(text)\(terminator): \(v) (\(used) bytes) vs \(reference)")
                    return
                }
            } else if let (v, used) = ours, used == text.utf8.count {
                Issue.record("\(text): accepted as \(v)")
                return
            }
        }
    }

    @Test(arguments: ["0", "-0", "1", "9.81", "-9.80665", "0.005035", ".5", "5.", "+3.25", "1e3", "1E-3", "2.5e+10",
                      "123456789.123456789", "0.1", "1e-05", "5e-324", "1.7976931348623157e308", "2.2250738585072014e-308",
                      "12345678901234567890123", "0.000000000000000000000000123", "9007199254740993", "1e22", "1e23", "8.98846567431158e307"])
    func matchesStandardLibrary(_ text: String) throws {
        let ours = try #require(parse(text))
        let reference = try #require(Double(text))
        #expect(ours.bitPattern == reference.bitPattern, "\(text): \(ours) vs \(reference)")
    }

    @Test func randomDecimalsMatchStandardLibraryBitForBit() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200_000 {
            let digits = Int(rng.next() % 20) + 1
            var text = rng.next() % 2 == 0 ? "-" : ""
            for _ in 0..<digits { text.append(Character(String(rng.next() % 10))) }
            let point = Int(rng.next() % UInt64(digits + 1))
            text.insert(".", at: text.index(text.endIndex, offsetBy: -point))
            if rng.next() % 4 == 0 { text += "e\(Int(rng.next() % 60) - 30)" }
            guard let reference = Double(text) else { continue }
            let ours = parse(text)
            if ours?.bitPattern != reference.bitPattern {
                Issue.record("\(text): \(String(describing: ours)) vs \(reference)")
                return
            }
        }
    }

    /// Scaled sensor values (`raw * scale`) printed shortest have 16-17 digits: the extended-precision path.
    @Test func longMantissasMatchStandardLibraryBitForBit() {
        var rng = SplitMix64(seed: 9)
        var checked = 0
        for i in 0..<300_000 {
            let raw = Double(Int16(truncatingIfNeeded: rng.next()))
            let scale = [0.000598550, 0.000152716, 0.0095768, 0.00122, 9.80665 / 16384][i % 5]
            var text = (raw * scale).description
            if i % 3 == 0 {  // also random 17-19 digit mantissas with small exponents
                let m = rng.next() % 10_000_000_000_000_000_000
                text = "\(m)e\(Int(rng.next() % 50) - 35)"
            }
            let reference = Double(text)!
            guard parse(text)?.bitPattern == reference.bitPattern else {
                Issue.record("\(text): \(String(describing: parse(text))) vs \(reference)")
                return
            }
            checked += 1
        }
        #expect(checked == 300_000)
        // Exact midpoints between doubles must not be double-rounded: 2^53 + 1 and neighbours.
        for text in ["9007199254740993", "9007199254740995", "18014398509481986", "18014398509481990", "900719925474099.3e1"] {
            #expect(parse(text)?.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    @Test func shortestRepresentationsRoundTrip() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<100_000 {
            let v = Double(bitPattern: rng.next())
            guard v.isFinite else { continue }
            #expect(parse(v.description)?.bitPattern == v.bitPattern, "\(v)")
        }
    }

    @Test(arguments: ["", "-", "+", ".", "-.", "e5", "1e", "1e+", "1..2", "1.2.3", "nan", "NaN", "inf", "-inf", " 1", "1 ", "0x10", "1,5", "1_000", "--1", "1e5.5"])
    func rejects(_ text: String) {
        #expect(parse(text) == nil)
    }

    @Test(arguments: [("0", Int64(0)), ("-12", -12), ("+7", 7), ("9223372036854775807", .max), ("-9223372036854775808", .min)])
    func integers(_ text: String, _ value: Int64) {
        #expect(parseInt(text) == value)
    }

    @Test(arguments: ["", "-", "1.0", "9223372036854775808", "-9223372036854775809", "1e3", " 1"])
    func rejectsIntegers(_ text: String) {
        #expect(parseInt(text) == nil)
    }

    @Test(arguments: [("0", Int64(0)), ("0.005035", 5_035_000), ("12.5", 12_500_000_000), ("-0.5", -500_000_000),
                      ("0.02", 20_000_000), ("1.0000000005", 1_000_000_001), ("1.0000000004999", 1_000_000_000),
                      ("1e-3", 1_000_000), ("2.5E2", 250_000_000_000), ("9223372036.854775807", .max), (".25", 250_000_000)])
    func secondsToNanoseconds(_ text: String, _ ns: Int64) {
        #expect(parseSeconds(text) == ns)
    }

    @Test(arguments: ["", "x", "1.2.3", "9223372037", "1e300", "nan", "0.5s"])
    func rejectsSeconds(_ text: String) {
        #expect(parseSeconds(text) == nil)
    }

    /// The text forms the command line and the header use: the same grammar, finite values only.
    @Test(arguments: [("9.81", 9.81), ("-1e3", -1000), ("+0.5", 0.5), ("1e308", 1e308)])
    func textForm(_ text: String, _ value: Double) {
        #expect(DecimalScanner.double(text) == value)
    }

    @Test(arguments: ["0x10", "inf", "nan", "1e309", " 1", "1 ", "", "1,5", "١"])
    func textFormRejects(_ text: String) {
        #expect(DecimalScanner.double(text) == nil)
    }
}
