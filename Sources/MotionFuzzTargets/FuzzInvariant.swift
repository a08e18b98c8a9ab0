/// A promise the code under test must keep for every input. A broken one stops the process with
/// the message (libFuzzer then saves the input as a crash; a test replaying it fails).
enum FuzzInvariant {
    /// Stops the process with `message` unless `condition` holds.
    static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        if !condition() { preconditionFailure("fuzz invariant broken: \(message())", file: file, line: line) }
    }

    /// Whether `text` is printable except for line breaks: what every message and output must be
    /// (bytes from the input are shown escaped).
    static func isPrintableMessage(_ text: String) -> Bool {
        text.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { DiagnosticTextCheck.isPrintable($0) }
    }

    /// Whether `text` contains `nan` or `inf` as a word (a number that leaked into output).
    static func containsNonFiniteWord(_ text: String) -> Bool {
        var word = ""
        for c in text.lowercased() + " " {
            if c.isLetter { word.append(c); continue }
            if word == "nan" || word == "inf" || word == "infinity" || word == "-nan" { return true }
            word = ""
        }
        return false
    }
}

import MotionCore

/// ``DiagnosticText/isPrintable(_:)`` for substrings.
enum DiagnosticTextCheck {
    static func isPrintable(_ s: Substring) -> Bool { DiagnosticText.isPrintable(Array(s.utf8)) }
}
