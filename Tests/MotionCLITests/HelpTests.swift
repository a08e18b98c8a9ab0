import Testing
@testable import MotionCLI

/// Help that is found: man pages and completions from the command specs, `-V`, help and usage
/// lines wrapped to the terminal, board names matched like chip names.
struct HelpTests {
    /// Runs the CLI with `columns` as the terminal width.
    static func run(_ args: [String], columns: Int = HelpFormatter.defaultWidth) -> (code: Int32, out: String, err: String) {
        nonisolated(unsafe) var out = ""
        nonisolated(unsafe) var err = ""
        var io = CommandIO(writeOut: { out += $0 }, writeErr: { err += $0 }, columns: columns)
        let code = MotionBatchCLI.main(args, io: &io)
        return (code, out, err)
    }

    static var allPaths: [[String]] {
        ManPage.pages(MotionBatchCLI.root).map { $0.chain.dropFirst().map(\.name) }
    }

    @Test func versionShortAndLongOnEverySubcommand() {
        for path in Self.allPaths {
            for flag in ["-V", "--version"] {
                let r = Self.run(path + [flag])
                #expect(r.code == 0 && r.out == MotionBatchCLI.version + "\n", "\(path) \(flag): \(r.err)")
            }
        }
        #expect(Self.run(["help", "capture"]).out.contains("-V, --version"))
    }

    @Test(arguments: [40, 60, 80, 132])
    func helpWrappedToTheGivenWidth(_ width: Int) {
        for path in Self.allPaths {
            let r = Self.run(["help"] + path, columns: width)
            #expect(r.code == 0)
            for line in r.out.split(separator: "\n") where line.count > width {
                // Only a single word longer than the width may stay whole.
                #expect(!line.drop(while: { $0 == " " }).contains(" "), "help \(path) at \(width): \(line)")
            }
            let words = Self.run(["help"] + path, columns: 100).out.split(whereSeparator: { $0 == " " || $0 == "\n" })
            #expect(r.out.split(whereSeparator: { $0 == " " || $0 == "\n" }) == words, "help \(path) lost text at \(width)")
        }
    }

    @Test func usageLineOfAnErrorWrapped() {
        for name in ["capture", "wakes", "replay"] {
            let r = Self.run([name, "--no-such-option"], columns: 80)
            #expect(r.code == 64)
            let lines = r.err.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= 80 || !$0.contains("] [") }, "\(name): \(lines.map(\.count))")
            #expect(lines.contains { $0.hasPrefix("Usage: motionbatch \(name)") })
            // Continuation lines sit under the command, and the whole usage is there.
            let usage = lines.drop { !$0.hasPrefix("Usage: ") }.prefix { !$0.hasPrefix("  See") }
            #expect(usage.count > 1 && usage.dropFirst().allSatisfy { $0.hasPrefix("       [") || $0.hasPrefix("       <") })
            #expect(usage.joined(separator: " ").split(separator: " ").dropFirst().joined(separator: " ")
                    == HelpFormatter.usage(ArgumentParser.resolveChain([name], root: MotionBatchCLI.root)).split(separator: " ").joined(separator: " "))
        }
    }

    @Test func terminalWidthFromColumnsThenTerminal() {
        #expect(TerminalWidth.decide(columnsVariable: "72", terminal: 200) == 72)
        #expect(TerminalWidth.decide(columnsVariable: nil, terminal: 132) == 132)
        #expect(TerminalWidth.decide(columnsVariable: "wide", terminal: nil) == 100)
        #expect(TerminalWidth.decide(columnsVariable: "0", terminal: 90) == 90)
        #expect(TerminalWidth.decide(columnsVariable: "10", terminal: nil) == HelpFormatter.minimumWidth)
    }

    @Test func boardNamesCaseInsensitiveWithSuggestion() {
        let ok = Self.run(["wakes", "--board", "RPI-4B", "--json"])
        #expect(ok.code == 0, "\(ok.err)")
        let typo = Self.run(["wakes", "--board", "rpi4"])
        #expect(typo.code == 64 && typo.err.contains("Did you mean 'rpi-4b'?"), "\(typo.err)")
        let chip = Self.run(["wakes", "--chips", "lsm6dsx"])
        #expect(chip.code == 64 && chip.err.contains("Did you mean"), "\(chip.err)")
    }

    @Test func manPageForEverySubcommandWithEveryOption() {
        let pages = ManPage.pages(MotionBatchCLI.root)
        #expect(pages.count == Self.allPaths.count)
        #expect(pages.map(\.name).contains("motionbatch-capture") && pages.map(\.name).contains("motionbatch-eval-steps"))
        for (name, chain) in pages {
            let roff = ManPage.page(chain, version: MotionBatchCLI.version)
            #expect(roff.hasPrefix(".TH \(name.uppercased()) 1 "))
            for o in chain.last!.options { #expect(roff.contains("\\-\\-\(ManPage.escaped(o.name))\\fR"), "\(name): --\(o.name)") }
            for s in chain.last!.subcommands { #expect(roff.contains(ManPage.escaped("\(name)-\(s.name)(1)")), "\(name): \(s.name)") }
            // No line of text starts a roff request by accident.
            for line in roff.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
                #expect([".TH", ".SH", ".TP", ".PP", ".B ", ".BR", ".I ", ".ad l"].contains { line.hasPrefix($0) }, "\(name): \(line)")
            }
        }
    }

    @Test(arguments: CompletionScript.Shell.allCases)
    func completionNamesEverySubcommandAndOption(_ shell: CompletionScript.Shell) {
        let r = Self.run(["--generate-completion-script", shell.rawValue])
        #expect(r.code == 0 && r.err.isEmpty)
        for (path, command) in CompletionScript.paths(MotionBatchCLI.root) {
            if let last = path.last { #expect(r.out.contains(last), "\(shell): \(path)") }
            for o in command.options { #expect(r.out.contains(shell == .fish ? "-l \(o.name)" : "--\(o.name)"), "\(shell) \(path): --\(o.name)") }
        }
        #expect(r.out.contains("rpi-zero-2w") && r.out.contains("LSM6DSO"))
        #expect(Self.run(["--generate-completion-script", "tcsh"]).code == 64)
        #expect(Self.run(["--generate-completion-scrip", "bash"]).err.contains("Did you mean '--generate-completion-script'"))
    }
}
