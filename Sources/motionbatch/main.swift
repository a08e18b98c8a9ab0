#if canImport(Glibc)
import Glibc
#endif
import MotionCLI

// Entry point: all behaviour lives in MotionCLI so that it can be tested in-process.
var io = CommandIO.standard()
exit(MotionBatchCLI.main(Array(CommandLine.arguments.dropFirst()), io: &io))
