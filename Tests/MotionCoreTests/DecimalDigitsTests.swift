import MotionTestSupport
import Testing
@testable import MotionCore

/// The byte forms the capture's per-wake-up path prints numbers and JSON with
/// (``DecimalDigits``, ``JSONBytes``): byte for byte the `String` forms they replace.
@Suite struct DecimalDigitsTests {
    @Test func integersAndDoublesAreTheirStringForms() {
        var rng = SplitMix64(seed: 7)
        var ints: [Int64] = [0, 1, -1, 9, 10, -10, Int64.max, Int64.min, 1_700_000_000_123_456_789]
        var doubles: [Double] = [0, -0.0, 1, -9.80665, 1e-300, 5e-324, 1e6, 0.1, 1.0 / 3.0, 123456.789123456789, .infinity, -.infinity, .nan, 1e22, 1e23]
        for _ in 0..<2000 {
            ints.append(Int64(bitPattern: rng.next()) >> (rng.next() % 64))
            doubles.append(Double(bitPattern: rng.next()))
            doubles.append((Double(rng.next() % 2_000_000) - 1_000_000) * 0.00980665)
        }
        for v in ints {
            var out: [UInt8] = [0x41]
            DecimalDigits.append(v, to: &out)
            #expect(out == [0x41] + Array(String(v).utf8))
            #expect(DecimalDigits.count(v.magnitude) == String(v.magnitude).count)
        }
        for v in doubles {
            var out: [UInt8] = []
            DecimalDigits.appendShortest(v, to: &out)
            #expect(out == Array(v.description.utf8), "\(v)")
        }
    }

    /// A checkpoint-like object: the bytes equal `JSONValue`'s compact serialization, escapes and
    /// nulls included, and the buffer handed in is reused.
    @Test func jsonBytesAreTheCompactSerialization() {
        let strings: [String?] = ["plain", nil, "quote \" backslash \\ newline \n tab \t cr \r bell \u{7} nul \u{0} é ✓ 🚶", ""]
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1024)
        for (k, s) in strings.enumerated() {
            let number: Int64? = k == 1 ? nil : Int64(k * 1_000_000_007) - 3
            var json = JSONBytes(reusing: &buffer)
            json.beginObject()
            json.member("n", int: number)
            json.member("s", string: s)
            json.member("z", int: 0)
            json.endObject()
            json.finish(into: &buffer)
            let expected = JSONValue.object([("n", number.map { .int($0) } ?? .null), ("s", s.map { .string($0) } ?? .null), ("z", .int(0))])
            #expect(buffer == Array(expected.serialized(pretty: false).utf8))
            #expect(buffer.capacity >= 1024)
        }
    }
}
