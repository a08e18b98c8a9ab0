/// The description of one command or command group: its name, help texts, arguments, options,
/// subcommands and what it runs. Help, usage lines and parsing are all derived from it,
/// following swift-argument-parser's conventions.
public struct CommandSpec: Sendable {
    /// The word that selects this command (`replay`, `steps`, ...).
    public var name: String
    /// One line shown in the parent's SUBCOMMANDS list and as OVERVIEW.
    public var abstract: String
    /// Optional longer text shown after OVERVIEW.
    public var discussion: String
    /// Positional arguments, in order.
    public var arguments: [ArgumentSpec]
    /// Options and flags (`--json`, `--batch N`).
    public var options: [OptionSpec]
    /// Nested commands (`eval steps`); a command with subcommands and no `run` is a group.
    public var subcommands: [CommandSpec]
    /// The action; receives the parsed arguments and the process I/O.
    public var run: (@Sendable (ParsedArguments, inout CommandIO) throws -> Void)?

    /// Creates a command description.
    public init(
        name: String,
        abstract: String,
        discussion: String = "",
        arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [],
        subcommands: [CommandSpec] = [],
        run: (@Sendable (ParsedArguments, inout CommandIO) throws -> Void)? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.run = run
    }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    /// Name shown in usage (`FILE`, `RECORDING`).
    public var name: String
    /// Help text.
    public var help: String
    /// Whether it may be omitted.
    public var isOptional: Bool
    /// Whether it takes all remaining positionals (`FILE...`).
    public var isRepeated: Bool

    /// Creates a positional argument.
    public init(_ name: String, help: String, optional: Bool = false, repeated: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isRepeated = repeated
    }
}

/// An option (`--batch N`) or a flag (`--json`).
public struct OptionSpec: Sendable {
    /// Long name without dashes, kebab-case (`batch`, `fsync-every`).
    public var name: String
    /// Optional one-letter short name without dash.
    public var short: Character?
    /// Name of the value (`N`, `SECONDS`); nil for a flag.
    public var valueName: String?
    /// Help text.
    public var help: String
    /// Whether the option may be given several times (values accumulate).
    public var isRepeated: Bool

    /// A flag: present or absent.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, isRepeated: false)
    }

    /// An option taking a value.
    public static func option(_ name: String, short: Character? = nil, value: String, help: String, repeated: Bool = false) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: value, help: help, isRepeated: repeated)
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { valueName != nil }
}
