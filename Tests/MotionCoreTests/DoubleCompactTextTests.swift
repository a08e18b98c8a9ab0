import Testing
import MotionCore

struct DoubleCompactTextTests {
    @Test(arguments: [
        (100.0, "100"), (-3.0, "-3"), (0.0, "0"), (0.5, "0.5"), (104.17, "104.17"),
        (999_999_999_999_999.0, "999999999999999"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
        (Double.nan, "nan"), (Double.infinity, "inf"),
    ])
    func wholeNumbersWithoutFractionOthersShortestRoundTrip(_ v: Double, _ text: String) {
        #expect(v.compactText == text)
    }

    @Test func jsonNumbersUseItAndNonFiniteIsNull() {
        #expect(JSONValue.array([.double(2), .double(0.25), .double(.nan), .double(-.infinity)]).serialized() == "[2,0.25,null,null]")
    }
}
