import Testing
@testable import MotionCLI

/// Runs the real CLI in-process and captures its output and exit status.
func runCLI(_ args: [String]) -> (code: Int32, out: String, err: String) {
    nonisolated(unsafe) var out = ""
    nonisolated(unsafe) var err = ""
    var io = CommandIO(writeOut: { out += $0 }, writeErr: { err += $0 })
    let code = MotionBatchCLI.main(args, io: &io)
    return (code, out, err)
}

@Test func versionAndHelpExitZeroOnStdout() {
    let v = runCLI(["--version"])
    #expect(v.code == 0 && v.out == MotionBatchCLI.version + "\n" && v.err.isEmpty)
    let h = runCLI(["--help"])
    #expect(h.code == 0 && h.out.contains("OVERVIEW:") && h.out.contains("USAGE: motionbatch"))
}

@Test func usageErrorGoesToStderrWithUsageAndExit64() {
    let r = runCLI(["--verison"])
    #expect(r.code == 64)
    #expect(r.out.isEmpty)
    #expect(r.err.hasPrefix("Error: Unknown option '--verison'. Did you mean '--version'?\n"))
    #expect(r.err.contains("Usage: motionbatch"))
}

@Test func everySubcommandHasHelp() {
    for sub in MotionBatchCLI.root.subcommands {
        let r = runCLI(["help", sub.name])
        #expect(r.code == 0, "help \(sub.name)")
        #expect(r.out.replacingOccurrences(of: "\n", with: " ").contains("OVERVIEW: \(sub.abstract)"))   // wrapped at 100 columns
        #expect(!sub.abstract.isEmpty)
        for o in sub.options { #expect(!o.help.isEmpty, "--\(o.name) of \(sub.name) needs help text") }
        for o in sub.options { #expect(o.name == o.name.lowercased() && !o.name.contains("_"), "kebab-case: \(o.name)") }
    }
}

// Help is wrapped to 100 columns for every command and subcommand, as swift-argument-parser wraps
// to the terminal; nothing of the text is lost on the way.
@Test func helpFitsOneHundredColumns() {
    var paths: [[String]] = [[]]
    for sub in MotionBatchCLI.root.subcommands {
        paths.append([sub.name])
        for nested in sub.subcommands { paths.append([sub.name, nested.name]) }
    }
    for path in paths {
        let r = runCLI(["help"] + path)
        #expect(r.code == 0, "help \(path)")
        for line in r.out.split(separator: "\n") { #expect(line.count <= 100, "help \(path.joined(separator: " ")): \(line.count) columns") }
    }
    let long = String(repeating: "word ", count: 40)
    let wrapped = HelpFormatter.fitted("  --option <v>          " + long)
    #expect(wrapped.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 24) + "word") })
    #expect(wrapped.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter { $0 == "word" }.count == 40)
}
