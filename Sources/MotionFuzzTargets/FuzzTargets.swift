/// The fuzz targets: each takes one input (any bytes) and returns normally, or stops the process
/// with a message when the code under test breaks one of its promises (``FuzzInvariant``). The
/// libFuzzer executables in `Fuzz/` call them; the tests replay the committed corpus
/// (`Fuzz/Corpus/<name>/`) through them, so every input that ever crashed stays a regression test.
///
/// Only public API is used, through the same entry points the commands use.
public enum FuzzTargets {
    /// One target: its name (the corpus folder and executable `fuzz-<name>`) and its body.
    public struct Target: Sendable {
        /// `recording-reader`, `recording-header`, `number-parser`, `board-profile`, `option-parser`, `fleet-payload`, `zip-archive`.
        public var name: String
        /// Runs one input.
        public var run: @Sendable ([UInt8]) -> Void
    }

    /// Every target, in the order the scripts run them.
    public static let all: [Target] = [
        Target(name: "recording-reader", run: recordingReader),
        Target(name: "recording-header", run: recordingHeader),
        Target(name: "number-parser", run: numberParser),
        Target(name: "board-profile", run: boardProfile),
        Target(name: "option-parser", run: optionParser),
        Target(name: "fleet-payload", run: fleetPayload),
        Target(name: "zip-archive", run: zipArchive),
    ]

    /// The target named `name`, or nil.
    public static func named(_ name: String) -> Target? { all.first { $0.name == name } }
}
