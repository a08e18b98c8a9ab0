import MotionAnalysis
import MotionCore
import MotionSession

/// The options every command that reads recordings shares: which dialect to read with
/// (`--input-format`, else recognised from the content) and what a dialect cannot learn from the
/// file (`--columns` and the units of an arbitrary CSV; `--layout` of a raw IIO buffer). A file
/// argument `-` is standard input.
struct InputOptions: Sendable {
    /// The dialect named by `--input-format` or implied by the other options, nil to recognise it.
    var dialect: (any RecordingDialect)?
    /// Columns, units, scan layout.
    var dialectOptions: RecordingDialectOptions
    /// `--max-spool`, `--max-ratio`.
    var limits = ArchiveLimits()
    /// `--strict`: a finding of the plausibility rule is an error, not a warning.
    var strict = false
    /// `--allow-empty`: a recording without samples is a warning, not a failure.
    var allowEmpty = false
    /// Threads each reader parses with (nil: the reader's default); 1 when `--jobs` analyses
    /// several files at once (``EachFile``).
    var readThreads: Int?

    /// No options: every input recognised from its content.
    static let none = InputOptions(dialect: nil, dialectOptions: RecordingDialectOptions())

    /// The options, for a command's spec.
    static let options: [OptionSpec] = [
        .option("input-format", value: "NAME", help: "Read inputs as NAME instead of recognising the format: \(RecordingDialects.names.joined(separator: ", ")) (docs/dialects.md)."),
        .option("columns", value: "MAP", help: "Any CSV with a header line: time=COL,x=COL,y=COL,z=COL[,gx=COL,gy=COL,gz=COL][,label=COL] (implies --input-format columns)."),
        .option("time-unit", value: "UNIT", help: "Unit of the --columns time column: \(TimeUnit.names) (default from its name: time_s, timestamp_ns)."),
        .option("accel-unit", value: "UNIT", help: "Unit of the --columns acceleration columns: \(AccelerationUnit.names) (default m/s2)."),
        .option("gyro-unit", value: "UNIT", help: "Unit of the --columns gyroscope columns: \(AngularRateUnit.names) (default rad/s)."),
        .option("max-spool", value: "SIZE", help: "Most bytes copied to a temporary file for an input on a pipe that needs one (a zip archive; an input read several times), e.g. 500M (default 2G, and never more than TMPDIR's free space less 256M or 5% of its size)."),
        .option("max-ratio", value: "N", help: "Refuse a gzip stream or zip member that expands more than N:1 (a decompression bomb; default 1000)."),
        .option("layout", value: "LAYOUT", help: "Scan layout of a raw IIO buffer (iio_readdev): ID:FORMAT[:SCALE[:OFFSET]],... in scan order, or FILE.json[#DEVICE] from 'motionbatch devices --json' (implies --input-format iio)."),
        .option("tz", value: "ZONE", help: "UTC offset of a device file whose times are local without a zone (Axivity CWA, ActiLife CSV, a .gt3x without TimeZone): -05:00, +05:30, UTC; its times are then UTC (docs/research.md)."),
        .flag("strict", help: "Treat the plausibility warnings (values, rate, gyroscope range, empty recording; docs/bad-input.md) as errors."),
        .flag("allow-empty", help: "Accept a recording without samples (a warning; without it, an empty recording fails)."),
    ]

    /// The options given.
    /// - Throws: ``CLIError/usage(_:)`` for an unknown dialect, a bad mapping, unit or layout, or
    ///   options that contradict `--input-format`; ``CLIError/failure(_:exitCode:)`` for a layout
    ///   file that cannot be read.
    static func parse(_ args: ParsedArguments) throws(CLIError) -> InputOptions {
        var o = RecordingDialectOptions()
        if let text = args.string("columns") {
            do { o.columns = try ColumnSelection(parsing: text) } catch { throw .usage("The value is invalid for '--columns': \(error)") }
        }
        o.timeUnit = try unit(args, "time-unit", TimeUnit.init(name:), TimeUnit.names)
        o.accelUnit = try unit(args, "accel-unit", AccelerationUnit.init(name:), AccelerationUnit.names)
        o.gyroUnit = try unit(args, "gyro-unit", AngularRateUnit.init(name:), AngularRateUnit.names)
        if let text = args.string("layout") { o.scanLayout = try layout(text) }
        if let text = args.string("tz") {
            guard let zone = UTCOffset(parsing: text) else {
                throw .usage("The value '\(DiagnosticText.escaped(text.utf8))' is invalid for '--tz': expected a UTC offset from -14:00 to +14:00, such as -05:00, +0530 or UTC.")
            }
            o.timeZone = zone
        }
        if o.scanLayout != nil && (o.columns != nil || o.timeUnit != nil || o.accelUnit != nil || o.gyroUnit != nil) {
            throw .usage("'--layout' (a raw IIO buffer) cannot be combined with '--columns' or the unit options (a CSV).")
        }
        var dialect: (any RecordingDialect)?
        if let name = args.string("input-format") {
            guard let d = RecordingDialects.named(name) else {
                throw .usage("The value '\(DiagnosticText.escaped(name.utf8))' is invalid for '--input-format': expected one of \(RecordingDialects.names.joined(separator: ", ")).")
            }
            if let implied = o.impliedDialect, implied != name {
                throw .usage("'--input-format \(name)' contradicts the \(implied == "iio" ? "'--layout'" : "column and unit options") (they read the '\(implied)' format).")
            }
            dialect = d
        } else if let implied = o.impliedDialect {
            dialect = RecordingDialects.named(implied)
        }
        var options = InputOptions(dialect: dialect, dialectOptions: o, strict: args.flag("strict"), allowEmpty: args.flag("allow-empty"))
        if let m = args.string("max-spool") {
            switch SessionQuantity.parse(m) {
            case .success(.size(let b)): options.limits.maxSpool = b
            case .success: throw .usage("The value '\(DiagnosticText.escaped(m.utf8))' is invalid for '--max-spool': expected a size, such as 500M or 2G.")
            case .failure(let e): throw .usage("The value \(e) is invalid for '--max-spool'.")
            }
        }
        if let r = try args.int("max-ratio", rule: InputLimits.positiveCount.narrowed(to: 1...1_000_000_000)) { options.limits.maxRatio = r }
        return options
    }

    /// The plausibility rule every input is judged by: the analyses' minimum rate and what the
    /// user said about units.
    var plausibility: PlausibilityRule {
        var rule = PlausibilityRule(minimumRateHz: AnalysisRequirement.all.map(\.minimumRateHz).max() ?? 12.5)
        rule.timeUnit = dialectOptions.timeUnit
        rule.accelUnit = dialectOptions.accelUnit
        rule.gyroUnit = dialectOptions.gyroUnit
        rule.columns = (dialectOptions.impliedDialect ?? dialect?.name) == "columns"
        rule.rawLayout = dialectOptions.scanLayout != nil
        rule.rawLayoutScaled = dialectOptions.scanLayout?.channels.contains { $0.id.hasPrefix("accel") && $0.scale != 1 } ?? false
        return rule
    }

    /// The reader options for these inputs.
    var readOptions: RecordingReadOptions {
        var o = RecordingReadOptions(dialect: dialectOptions, plausibility: plausibility)
        o.limits = limits
        if let readThreads { o.threads = readThreads }
        return o
    }

    /// Reports a recording's warnings on stderr (``WarningReport``), and fails for what the
    /// plausibility rule found that these options do not accept: an empty recording without
    /// `--allow-empty`, any of its findings with `--strict` (reported as the error, not as a warning).
    /// - Throws: ``CLIError/failure(_:exitCode:)`` with the finding's `FILE:LINE: message`.
    func report(_ warnings: [RecordingWarning], to io: CommandIO) throws(CLIError) {
        let fatal = warnings.first { w in
            RecordingWarningKind.plausibility.contains(w.kind) && (strict || (w.kind == .emptyStream && !allowEmpty))
        }
        WarningReport.print(warnings.filter { $0 != fatal }, to: io)
        if let w = fatal {
            let why = strict ? " (--strict)" : " (--allow-empty accepts an empty recording)"
            throw .failure("\(w.file):\(w.line): \(w.message)\(why)")
        }
    }

    /// Opens `argument` (`-`: standard input).
    /// - Throws: the reader's errors (``RecordingError``, `SystemError`).
    func open(_ argument: String) throws -> RecordingReader {
        try RecordingReader(input: .argument(argument), dialect: dialect, options: readOptions)
    }

    /// A way to read `argument` several times from its start: a path reopened, standard input
    /// copied once into an anonymous temporary file.
    func reopenable(_ argument: String) throws -> () throws -> RecordingReader {
        guard argument == "-" else { return { try open(argument) } }
        let copy = try SpooledInput(copying: .standardInput, limits: limits)
        return { try RecordingReader(input: try copy.input(), dialect: dialect, options: readOptions) }
    }

    private static func unit<U>(_ args: ParsedArguments, _ option: String, _ make: (String) -> U?, _ names: String) throws(CLIError) -> U? {
        guard let text = args.string(option) else { return nil }
        guard let u = make(text) else {
            throw .usage("The value '\(DiagnosticText.escaped(text.utf8))' is invalid for '--\(option)': expected one of \(names).")
        }
        return u
    }

    /// `--layout`: a description, or a `devices --json` snapshot `FILE.json[#DEVICE]`.
    private static func layout(_ text: String) throws(CLIError) -> IIOBufferLayout {
        let parts = text.split(separator: "#", maxSplits: 1).map(String.init)
        if let file = parts.first, file.hasSuffix(".json") || (!text.contains(":") && !file.isEmpty) {
            let bytes = try CLIFiles.read(file)
            do { return try IIOBufferLayout(devicesJSON: bytes, file: file, device: parts.count > 1 ? parts[1] : nil) } catch {
                throw .failure("\(error)")
            }
        }
        do { return try IIOBufferLayout(parsing: text) } catch { throw .usage("The value is invalid for '--layout': \(error)") }
    }
}
