/// `motionbatch eval`: accuracy evaluations against the real datasets (a command group, so that
/// `eval activity` can join `eval steps`). The evaluations themselves (datasets, metrics, targets,
/// verdicts) are MotionEvaluation's; this parses the options and formats the figures.
enum EvalCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "eval",
            abstract: "Measure analysis accuracy on the real datasets.",
            subcommands: [stepsSpec, EvalActivityCommand.spec]
        )
    }

    /// `motionbatch eval steps` (``EvalStepsCommand``).
    static var stepsSpec: CommandSpec { EvalStepsCommand.spec }
}
