/// Every top-level subcommand of `motionbatch`, in the order `--help` lists them.
/// Each command lives in its own `Commands/<Name>Command.swift`; add one line here per command.
enum CommandRegistry {
    static var commands: [CommandSpec] {
        [
            ReplayCommand.spec,
            ConvertCommand.spec,
            BenchCommand.spec,
            StepsCommand.spec,
            ActivityCommand.spec,
            EpochsCommand.spec,
            EvalCommand.spec,
            WakesCommand.spec,
            CalibrateCommand.spec,
            EmulateCommand.spec,
            DevicesCommand.spec,
            CaptureCommand.spec,
            RecoverCommand.spec,
            CollectCommand.spec,
        ]
    }
}
