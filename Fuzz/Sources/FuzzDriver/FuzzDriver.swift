#if canImport(Glibc)
import Glibc
#endif
import CFuzzerDriver
import MotionFuzzTargets

/// Runs libFuzzer on one of ``FuzzTargets``: the only Swift code that imports `CFuzzerDriver`.
///
/// SwiftPM links an executable's `main` to its module's entry point, so the fuzz executables have
/// a `main.swift` that calls ``run(_:)``, which hands libFuzzer's driver (`LLVMFuzzerRunDriver`)
/// the target; `LLVMFuzzerTestOneInput`, which libFuzzer's own `main` object refers to, is
/// defined here too and runs the same target.
public enum FuzzDriver {
    nonisolated(unsafe) static var target: FuzzTargets.Target?

    /// Fuzzes `name` with the process's command line (libFuzzer options and corpus folders).
    public static func run(_ name: String) -> Never {
        guard let t = FuzzTargets.named(name) else {
            let message = "unknown fuzz target \(name)\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            exit(2)
        }
        target = t
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in FuzzDriver.testOneInput(data, size) })
    }

    /// One input for the current target.
    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        target?.run(bytes)
        return 0
    }
}

/// libFuzzer's per-input entry point (referenced by its `main`, which ``FuzzDriver/run(_:)`` replaces).
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDriver.testOneInput(data, size)
}
