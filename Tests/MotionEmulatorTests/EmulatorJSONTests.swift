import Testing
@testable import MotionEmulator

@Test func jsonRendersStableAndEscaped() {
    let v = EmulatorJSON.object([("b", .int(2)), ("a", .array([.double(0.5), .double(3), .double(.nan), .null])),
                              ("s", .string("q\"\\\n\u{01}")), ("t", .bool(true)), ("e", .object([]))])
    #expect(v.rendered(indent: 0) == #"{"b":2,"a":[0.5,3,null,null],"s":"q\"\\\n\u0001","t":true,"e":{}}"#)
}
