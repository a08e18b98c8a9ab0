import Testing
@testable import MotionCLI
import MotionCore

/// A small command tree used to test parsing independently of the real commands.
private let demo = CommandSpec(
    name: "tool",
    abstract: "Demo tool.",
    subcommands: [
        CommandSpec(
            name: "run",
            abstract: "Runs things.",
            arguments: [ArgumentSpec("FILE", help: "Input files.", repeated: true)],
            options: [
                .option("batch", value: "N", help: "Batch size."),
                .option("latency", value: "SECONDS", help: "Latency."),
                .flag("json", help: "JSON output."),
            ],
            run: { _, _ in }
        ),
        CommandSpec(
            name: "copy",
            abstract: "Copies things (IN... OUT, as cp).",
            arguments: [ArgumentSpec("IN", help: "Inputs.", repeated: true), ArgumentSpec("OUT", help: "Output.")],
            run: { _, _ in }
        ),
        CommandSpec(name: "group", abstract: "A group.", subcommands: [
            CommandSpec(name: "leaf", abstract: "Leaf.", run: { _, _ in }),
        ]),
    ]
)

private func parse(_ words: [String]) throws(CLIError) -> ArgumentParser.Outcome {
    try ArgumentParser.parse(words, root: demo).0
}

@Test func parsesOptionsFlagsAndPositionals() throws {
    guard case .run(let cmd, let args) = try parse(["run", "a.csv", "--batch", "10", "b.csv", "--json", "--latency=0.5"]) else {
        Issue.record("expected run"); return
    }
    #expect(cmd.name == "run")
    #expect(args.arguments("FILE") == ["a.csv", "b.csv"])
    #expect(try args.int("batch", rule: InputLimits.positiveCount) == 10)
    #expect(try args.double("latency", rule: InputLimits.duration) == 0.5)
    #expect(args.flag("json"))
}

/// A repeated positional leaves the last words to the required ones after it (`convert IN... OUT`).
@Test func aRepeatedArgumentLeavesTheLastToTheOnesAfterIt() throws {
    for (words, ins, out) in [(["a", "b", "c"], ["a", "b"], "c"), (["a", "--", "-b"], ["a"], "-b"), (["a", "b"], ["a"], "b")] {
        guard case .run(_, let args) = try parse(["copy"] + words) else { Issue.record("expected run"); return }
        #expect(args.arguments("IN") == ins)
        #expect(args.argument("OUT") == out)
    }
}

@Test(arguments: [
    (["copy"], "Missing expected argument 'IN...'."),
    (["copy", "a"], "Missing expected argument 'OUT'."),
    (["run", "a", "--bach", "3"], "Unknown option '--bach'. Did you mean '--batch'?"),
    (["rnu"], "Unknown subcommand 'rnu' for 'tool'. Did you mean 'run'?"),
    (["run"], "Missing expected argument 'FILE...'."),
    (["run", "a", "--batch"], "Missing value for '--batch <n>'."),
    (["run", "a", "--json=1"], "The flag '--json' does not take a value."),
    (["run", "a", "--batch", "1", "--batch", "2"], "The option '--batch' was given more than once."),
    (["group", "lef"], "Unknown subcommand 'lef' for 'tool group'. Did you mean 'leaf'?"),
    (["--hlep"], "Unknown option '--hlep'. Did you mean '--help'?"),
])
func usageErrorsNameTheProblem(words: [String], message: String) {
    #expect(throws: CLIError.self) { try parse(words) }
    do {
        _ = try parse(words)
    } catch {
        #expect(error.message == message)
        #expect(error.exitCode == 64)
    }
}

@Test func typedAccessorsRejectBadValues() throws {
    guard case .run(_, let args) = try parse(["run", "a", "--batch", "x", "--latency", "nan"]) else { return }
    #expect(throws: CLIError.self) { try args.int("batch", rule: InputLimits.positiveCount) }
    #expect(throws: CLIError.self) { try args.double("latency", rule: InputLimits.duration) }
}

/// Option values follow the recordings' number grammar and their kind's rule, named in the message.
@Test(arguments: [
    ("0x10", "The value '0x10' is invalid for '--latency': expected a decimal number (duration must be within 0...1000000000 s)."),
    ("inf", "The value 'inf' is invalid for '--latency': expected a decimal number (duration must be within 0...1000000000 s)."),
    ("1e19", "The value '1e19' is invalid for '--latency': duration must be within 0...1000000000 s."),
    ("-1", "The value '-1' is invalid for '--latency': duration must be within 0...1000000000 s."),
    ("1\u{1}", "The value '1\\x01' is invalid for '--latency': expected a decimal number (duration must be within 0...1000000000 s)."),
])
func numbersFollowTheSharedGrammarAndRule(text: String, message: String) throws {
    guard case .run(_, let args) = try parse(["run", "a", "--latency", text]) else { Issue.record("expected run"); return }
    do {
        _ = try args.double("latency", rule: InputLimits.duration)
        Issue.record("accepted \(text)")
    } catch {
        #expect(error.message == message)
        #expect(error.exitCode == 64)
    }
}

@Test(arguments: ["1.5", "1e3", "0x10", "9223372036854775808", "0"])
func countsMustBeWholeNumbersWithinTheirRule(text: String) throws {
    guard case .run(_, let args) = try parse(["run", "a", "--batch", text]) else { Issue.record("expected run"); return }
    #expect(throws: CLIError.self) { try args.int("batch", rule: InputLimits.positiveCount) }
}

@Test(arguments: [["--help"], ["help"], ["run", "-h"], ["help", "group", "leaf"], ["group"]])
func helpRequestsResolveToHelp(words: [String]) throws {
    guard case .help = try parse(words) else { Issue.record("expected help for \(words)"); return }
}

@Test func helpHasArgumentParserSections() {
    let text = HelpFormatter.help([demo, demo.subcommands[0]])
    #expect(text.hasPrefix("OVERVIEW: Runs things."))
    #expect(text.contains("USAGE: tool run [--batch <n>] [--latency <seconds>] [--json] <file> ..."))
    #expect(text.contains("ARGUMENTS:"))
    #expect(text.contains("OPTIONS:"))
    #expect(text.contains("  -h, --help"))
    #expect(HelpFormatter.help([demo]).contains("SUBCOMMANDS:"))
}

@Test func suggestionUsesEditDistance() {
    #expect(Suggestion.distance("kitten", "sitting") == 3)
    #expect(Suggestion.nearest(to: "--jsn", in: ["--json", "--batch"]) == "--json")
    #expect(Suggestion.nearest(to: "--zzzzzz", in: ["--json"]) == nil)
}
