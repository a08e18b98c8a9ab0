import Foundation
@testable import MotionCLI
import MotionTestSupport
import Testing

/// The README's examples are "real output": every fenced block that starts with
/// `$ motionbatch ...` is run, and every line it shows must be a line the command prints, in the
/// same order (an example may leave lines out; a `...` line says so).
struct ReadmeExamplesTests {
    /// One example: the command's arguments and the lines shown after it.
    struct Example: CustomStringConvertible {
        var arguments: [String]
        var expected: [String]
        var description: String { "motionbatch " + arguments.joined(separator: " ") }
    }

    static func examples() throws -> [Example] {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var out: [Example] = []
        var block: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let b = block {
                    if let first = b.first, first.hasPrefix("$ motionbatch ") {
                        let args = first.dropFirst("$ motionbatch ".count).split(separator: " ").map(String.init)
                        out.append(Example(arguments: args, expected: Array(b.dropFirst())))
                    }
                    block = nil
                } else {
                    block = []
                }
            } else if block != nil {
                block!.append(line)
            }
        }
        return out
    }

    @Test func theReadmeShowsRealOutput() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 3, "the README's examples: \(examples)")
        let root = TestPaths.packageRoot.path + "/"
        for example in examples {
            // Relative paths are the package's: run with absolute ones, compare with relative ones.
            let args = example.arguments.map { $0.hasPrefix("Recordings/") ? root + $0 : $0 }
            nonisolated(unsafe) var out = ""
            var io = CommandIO(writeOut: { out += $0 }, writeErr: { _ in }, columns: 100)
            let code = MotionBatchCLI.main(args, io: &io)
            #expect(code == 0, "\(example)")
            let lines = out.replacingOccurrences(of: root, with: "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var next = lines[...]
            for line in example.expected where line != "..." {
                guard let at = next.firstIndex(of: line) else {
                    Issue.record("\(example): \"\(line)\" is not in its output (after the lines before it):\n\(lines.joined(separator: "\n"))")
                    break
                }
                next = lines[(at + 1)...]
            }
        }
    }
}
