import Testing
@testable import MotionCore

@Suite struct ValueRuleTests {
    @Test func rulesAcceptTheirRangeOnlyAndNameTheLimit() {
        let rate = InputLimits.rate
        #expect(rate.contains(0.001) && rate.contains(1_000_000) && rate.contains(50))
        for bad in [0.000999, 1_000_001, 0, -1, .nan, .infinity, 1e308, 1e-320] { #expect(!rate.contains(bad), "\(bad)") }
        #expect(rate.problem("1e308") == "sampling rate 1e308 is out of range (allowed 0.001...1000000 Hz)")
        #expect(rate.description == "sampling rate must be within 0.001...1000000 Hz")
        #expect(InputLimits.positiveDuration.rangeText == "> 0 and <= 1000000000 s")
        #expect(!InputLimits.positiveDuration.contains(0) && InputLimits.duration.contains(0))
        #expect(throws: ValueRangeError(rule: rate, text: "2e6")) { try rate.check(2e6, text: "2e6") }
    }

    @Test func narrowedRulesKeepTheirKind() {
        let latency = InputLimits.duration.narrowed(to: 0...3600)
        #expect(latency.quantity == "duration" && latency.unit == "s" && latency.contains(3600) && !latency.contains(3601))
    }

    /// The limits keep every sum and difference the code computes within Int64.
    @Test func limitsKeepTimeArithmeticInRange() {
        let t = InputLimits.timestampLimit
        let d = Int64(InputLimits.duration.upperBound * 1e9)
        // The widest span plus the longest duration.
        #expect(t.subtractingReportingOverflow(-t).partialValue.addingReportingOverflow(d).overflow == false)
        #expect(t.subtractingReportingOverflow(-t).overflow == false)
        #expect((-t).subtractingReportingOverflow(d).overflow == false)
        #expect(InputLimits.containsTimestamp(t) && InputLimits.containsTimestamp(-t))
        #expect(!InputLimits.containsTimestamp(t + 1) && !InputLimits.containsTimestamp(.min) && !InputLimits.containsTimestamp(.max))
        let v = InputLimits.sampleMagnitude
        #expect((v * v * 3).squareRoot().isFinite)
    }
}

/// Bytes and how a message quotes them.
let escapingCases: [([UInt8], String)] = [
    (Array("walk".utf8) + [0] + Array("ing".utf8), "\"walk\\x00ing\""),
    ([0x1B] + Array("[31m".utf8), "\"\\x1b[31m\""),
    ([0x22, 0x5C], "\"\\\"\\\\\""),
    ([0xFF, 0x41], "\"\\xffA\""),
    (Array("±9.81 m/s²".utf8), "\"±9.81 m/s²\""),
    ([0xC2, 0x85], "\"\\u{85}\""),
    ([0x7F], "\"\\x7f\""),
]

@Suite struct DiagnosticTextTests {
    @Test(arguments: escapingCases)
    func escapesWhatIsNotPrintable(bytes: [UInt8], quoted: String) {
        #expect(DiagnosticText.quoted(bytes) == quoted)
        #expect(DiagnosticText.isPrintable(Array(quoted.utf8)))
    }

    @Test func longTextIsCut() {
        #expect(DiagnosticText.quoted(String(repeating: "9", count: 50)) == "\"" + String(repeating: "9", count: 40) + "...\"")
    }

    @Test func printableAndFirstBadOffset() {
        #expect(DiagnosticText.isPrintable(Array("Walking upstairs ☃".utf8)))
        #expect(DiagnosticText.firstUnprintableOffset(Array("ab\tc".utf8)) == 2)
        #expect(DiagnosticText.firstUnprintableOffset([0x61, 0xE2, 0x98]) == 1, "a truncated sequence")
        #expect(DiagnosticText.firstUnprintableOffset([0xED, 0xA0, 0x80]) == 0, "a surrogate is not UTF-8")
    }

    @Test func sanitizedKeepsQuotesAndLineBreaks() {
        #expect(DiagnosticText.sanitized("a \"b\"\nc\u{1}d\\") == "a \"b\"\nc\\x01d\\")
        #expect(DiagnosticText.sanitized("plain") == "plain")
    }
}
