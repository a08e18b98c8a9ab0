// swift-tools-version: 6.0
// MotionBatch's libFuzzer executables: one small product per fuzz target, in their own package
// (and scratch path) so that the main package's products are never built with sanitizers.
// Build and run with scripts/fuzz.sh (see Fuzz/README.md); the targets' bodies are the main
// package's MotionFuzzTargets library, which the tests also run over Fuzz/Corpus.
import PackageDescription

let package = Package(
    name: "MotionBatchFuzz",
    products: [
        .executable(name: "fuzz-recording-reader", targets: ["FuzzRecordingReader"]),
        .executable(name: "fuzz-recording-header", targets: ["FuzzRecordingHeader"]),
        .executable(name: "fuzz-number-parser", targets: ["FuzzNumberParser"]),
        .executable(name: "fuzz-board-profile", targets: ["FuzzBoardProfile"]),
        .executable(name: "fuzz-option-parser", targets: ["FuzzOptionParser"]),
        .executable(name: "fuzz-fleet-payload", targets: ["FuzzFleetPayload"]),
        .executable(name: "fuzz-zip-archive", targets: ["FuzzZipArchive"]),
    ],
    dependencies: [.package(name: "MotionBatch", path: "..")],
    targets: [
        // The declaration of libFuzzer's LLVMFuzzerRunDriver. Only FuzzDriver imports it.
        .target(name: "CFuzzerDriver"),
        // Hands a FuzzTargets target to libFuzzer's driver.
        .target(name: "FuzzDriver", dependencies: ["CFuzzerDriver", .product(name: "MotionFuzzTargets", package: "MotionBatch")]),
        .executableTarget(name: "FuzzRecordingReader", dependencies: ["FuzzDriver"]),
        .executableTarget(name: "FuzzRecordingHeader", dependencies: ["FuzzDriver"]),
        .executableTarget(name: "FuzzNumberParser", dependencies: ["FuzzDriver"]),
        .executableTarget(name: "FuzzBoardProfile", dependencies: ["FuzzDriver"]),
        .executableTarget(name: "FuzzOptionParser", dependencies: ["FuzzDriver"]),
        .executableTarget(name: "FuzzFleetPayload", dependencies: ["FuzzDriver"]),
        .executableTarget(name: "FuzzZipArchive", dependencies: ["FuzzDriver"]),
    ]
)
