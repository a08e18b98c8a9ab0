import Testing
@testable import MotionCore

@Test func jsonRendersStableAndEscaped() {
    let v = JSONValue.object([("b", .int(2)), ("a", .array([.double(0.5), .double(3), .double(.nan), .null])),
                              ("s", .string("q\"\\\n\u{01}")), ("t", .bool(true)), ("e", .object([]))])
    #expect(v.serialized() == #"{"b":2,"a":[0.5,3,null,null],"s":"q\"\\\n\u0001","t":true,"e":{}}"#)
}

@Test func prettyOutputIndentsByTwoSpaces() {
    let v = JSONValue.object([("a", .array([.int(1)])), ("b", .number(Double.infinity))])
    #expect(v.serialized(pretty: true) == "{\n  \"a\": [\n    1\n  ],\n  \"b\": null\n}")
}

@Test func quotedEscapesForJSON() {
    #expect(JSONValue.quoted("tab\there") == #""tab\there""#)
}
