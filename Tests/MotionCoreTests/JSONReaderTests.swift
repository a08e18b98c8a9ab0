import Testing
@testable import MotionCore

private func parse(_ text: String) throws(JSONReader.Failure) -> JSONNode {
    try JSONReader.parse(Array(text.utf8))
}

@Suite struct JSONReaderTests {
    @Test func readsValuesWithTheirPositions() throws {
        let doc = try parse("{\n  \"a\": [1, -2.5e3, true, null],\n  \"s\": \"x\\u00e9\\ud83d\\ude00\\n\"\n}")
        #expect(doc.keys == ["a", "s"])
        #expect(doc["a"]?.position == TextPosition(line: 2, column: 8))
        guard case .array(let items)? = doc["a"]?.value, case .number(let n) = items[1].value else { Issue.record("array"); return }
        #expect(n == -2500 && items[1].position == TextPosition(line: 2, column: 12))
        guard case .string(let s)? = doc["s"]?.value else { Issue.record("string"); return }
        #expect(s == "xé😀\n")
    }

    @Test(arguments: [
        ("", "1:1", "expected a JSON value, found the end of the file"),
        ("{\"a\": 1,}", "1:9", "expected a key in double quotes"),
        ("{\"a\": 1, \"a\": 2}", "1:10", "key \"a\" appears twice (first at 1:2)"),
        ("[01]", "1:2", "leading zeros"),
        ("[+1]", "1:2", "expected a JSON value"),
        ("[.5]", "1:2", "expected a JSON value"),
        ("[0x10]", "1:3", "expected ',' or ']'"),
        ("[NaN]", "1:2", "expected a JSON value"),
        ("[1e999]", "1:2", "is out of range"),
        ("[\"a\u{1}\"]", "1:4", "control character '\\x01'"),
        ("[\"\\ud800\"]", "1:9", "surrogate"),
        ("[1] x", "1:5", "after the JSON value"),
        ("{\"a\":\n\n  tru}", "3:3", "expected a JSON value"),
    ])
    func errorsNameTheLineAndColumn(text: String, position: String, problem: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.position.description == position, "\(error)")
            #expect(error.problem.contains(problem), "\(error)")
            #expect(DiagnosticText.isPrintable(Array(error.description.utf8)))
        }
    }

    @Test func depthAndSizeAreBounded() throws {
        let deep = String(repeating: "[", count: JSONReader.maxDepth + 1) + String(repeating: "]", count: JSONReader.maxDepth + 1)
        #expect(throws: JSONReader.Failure.self) { try parse(deep) }
        let ok = String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth)
        _ = try parse(ok)
        let big = [UInt8](repeating: 0x20, count: JSONReader.maxBytes + 1)
        #expect(throws: JSONReader.Failure(position: TextPosition(line: 1, column: 1), problem: "the file is larger than \(JSONReader.maxBytes) bytes")) {
            try JSONReader.parse(big)
        }
    }

    @Test func invalidUTF8InAStringIsAnError() {
        #expect(throws: JSONReader.Failure.self) { try JSONReader.parse([0x22, 0xFF, 0x22]) }
    }
}
