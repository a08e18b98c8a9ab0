#if canImport(Glibc)
import Glibc
#endif
import MotionCLI

extension FuzzTargets {
    /// The option parser and the commands' checks of option values: the input, split at NUL
    /// bytes into words, follows one of the pure commands (replay, steps, convert to /dev/null,
    /// wakes, calibrate, help) on a small recording. Every run ends with status 0, 1 or 64, prints
    /// printable messages, and no NaN or infinity. For convert, whose last argument is OUT (`IN...
    /// OUT`), /dev/null comes after the words: a word is one more IN, never the output.
    ///
    /// Words that could make a command write a file (a `/`, `--html`, `--stats-json`, `-o`,
    /// `--generate-manual`, ...) or read one outside the fixture (`.`, `..`: folders of
    /// recordings) are dropped, so the fuzzer never writes outside the command's own output
    /// (/dev/null) nor depends on what the machine holds.
    @Sendable public static func optionParser(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let fixture = FuzzFixture.walkingRecordingPath
        let prefixes: [[String]] = [
            ["replay", fixture], ["steps", fixture], ["convert", fixture], ["wakes"],
            ["wakes", fixture, "--rates", "50", "--latencies", "0,1"], ["calibrate"], ["replay"], ["help"], [],
        ]
        var words = prefixes[Int(selector) % prefixes.count]
        let blocked = ["--html", "--stats-json", "--summary-json", "--status-file", "-o", "--output", "--overwrite", "--measured", "--per-sample", "--batched", "--publish", "--outbox", "--generate-manual"]
        for w in data.dropFirst().split(separator: 0, omittingEmptySubsequences: false).prefix(12) {
            let word = String(decoding: w.prefix(80), as: UTF8.self)
            // No path: not '/', and not '.' or '..' (the working folder and its parent are folders
            // of recordings to the commands, which would read whatever lies there).
            guard !word.contains("/"), word != ".", word != "..", !blocked.contains(where: { word.hasPrefix($0) }) else { continue }
            words.append(word)
        }
        if words.first == "convert" { words.append("/dev/null") }
        nonisolated(unsafe) var out = ""
        nonisolated(unsafe) var err = ""
        var io = CommandIO(writeOut: { out += $0 }, writeErr: { err += $0 })
        let code = MotionBatchCLI.main(words, io: &io)
        FuzzInvariant.check([0, 1, 64].contains(code), "exit status \(code) for \(words)")
        FuzzInvariant.check(!FuzzInvariant.containsNonFiniteWord(out), "non-finite number on stdout for \(words): \(out.prefix(300))")
        FuzzInvariant.check(FuzzInvariant.isPrintableMessage(err), "stderr not escaped for \(words): \(err.debugDescription.prefix(300))")
    }
}
