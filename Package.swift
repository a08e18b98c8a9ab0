// swift-tools-version: 6.0
// MotionBatch: IIO accelerometer/gyroscope capture with hardware-FIFO batching,
// step counting and wake-up accounting. One target per concern; see README.md.
import PackageDescription

let package = Package(
    name: "MotionBatch",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "motionbatch", targets: ["motionbatch"]),
        .library(name: "MotionCore", targets: ["MotionCore"]),
        // The fuzz targets' bodies, for the libFuzzer executables of Fuzz/Package.swift.
        .library(name: "MotionFuzzTargets", targets: ["MotionFuzzTargets"]),
    ],
    targets: [
        // Samples, batches, recordings (read/write; every input dialect, gzip, zip and folders),
        // batching of a stream into deliveries. No I/O to devices.
        .target(name: "MotionCore", dependencies: ["CByteClass", "CZlib", "MotionSystem"]),
        // zlib (system library, Debian zlib1g-dev): gzip-compressed recordings and zip archives.
        // Only MotionCore/Compression imports it.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The one error value for system calls (`SystemError`, `Errno`), the owned file descriptor and
        // the one wrapper of each system call the I/O layers need (poll, timerfd, signals, clock, sched).
        .target(name: "MotionSystem", dependencies: ["CSystem"]),
        // Linux headers Swift's Glibc module lacks (`<sys/timerfd.h>`). Only MotionSystem imports it.
        .systemLibrary(name: "CSystem"),
        // One C loop for MotionCore's parser: the non-digit bitmap of a block (SSE2 `pmovmskb`, which
        // Swift's SIMD types cannot express). Only MotionCore imports it.
        .target(name: "CByteClass"),
        // The one analysis pipeline (batch analyzers fed every delivery; the replay of a recording into
        // it) and the analyzers: stream statistics, the step counter. State machines, no clock.
        .target(name: "MotionAnalysis", dependencies: ["MotionCore"]),
        // Accuracy against the real datasets: manifest, truth files, metrics, targets and verdicts.
        .target(name: "MotionEvaluation", dependencies: ["MotionAnalysis", "MotionCore", "MotionSystem"]),
        // Command-line parsing, help and the subcommands.
        .target(name: "MotionCLI", dependencies: ["MotionCore", "MotionSystem", "MotionAnalysis", "MotionEvaluation", "WakeCost", "MotionEmulator", "MotionIIO", "MotionSession", "MotionFleet"]),
        // Wake-up, CPU-time, energy and FIFO-overflow model of sensor delivery settings (pure, no I/O).
        .target(name: "WakeCost", dependencies: ["MotionCore"]),
        // C helpers that build/parse Linux `struct uhid_event` (<linux/uhid.h>) for MotionEmulator.
        .target(name: "CUHID"),
        // Virtual HID sensor hub (accel 3D + gyro 3D) over /dev/uhid, replaying a recording.
        .target(name: "MotionEmulator", dependencies: ["MotionCore", "MotionSystem", "CUHID"]),
        // libiio 0.24 (system library). Only MotionIIO imports it.
        .systemLibrary(name: "CLibIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        // IIO reader: owned libiio wrappers, discovery, access state, configuration, capture.
        .target(name: "MotionIIO", dependencies: ["CLibIIO", "MotionCore", "MotionSystem"]),
        // A long-running capture as a session: recordings (rotation, retention, a full disk, device
        // loss), checkpoints and recovery, per-batch reports, summaries, log events. A pure session
        // machine and its driver (the capture's sink).
        .target(name: "MotionSession", dependencies: ["MotionAnalysis", "MotionCore", "MotionIIO", "MotionSystem", "WakeCost"]),
        // libmosquitto 2.0 (system library). Only MotionMQTT imports it.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // The MQTT client: one owned libmosquitto handle, driven without threads (a non-blocking
        // loop step in the caller's wake-up), its callbacks turned into events.
        .target(name: "MotionMQTT", dependencies: ["CMosquitto", "MotionSystem"]),
        // Many boards: the fleet's topics and versioned messages, publishing through an on-disk
        // outbox as a pure machine (PublishMachine) and its driver, the collector (dedupe,
        // per-board files) and the fleet report.
        .target(name: "MotionFleet", dependencies: ["MotionCore", "MotionIIO", "MotionSession", "MotionSystem", "MotionMQTT"]),
        // The fuzz targets (one function per input kind: reader, header, numbers, board profile,
        // options), run by the libFuzzer executables in Fuzz/ and, over the committed corpus, by the tests.
        .target(name: "MotionFuzzTargets", dependencies: ["MotionCore", "MotionSystem", "WakeCost", "MotionCLI"]),
        // The `motionbatch` executable: a one-line entry point into MotionCLI.
        .executableTarget(name: "motionbatch", dependencies: ["MotionCLI"]),
        // A minimal poll + read loop on an IIO buffer: the kernel tests' floor for a Swift reader's
        // per-sample cost in the emulated guest (scripts/kernel-tests, tests 55 and 58). Not shipped.
        .executableTarget(name: "floor-reader", path: "Sources/floor-reader"),

        // What several test targets share: a seeded generator, the datasets' location, scratch folders,
        // the batch-invariance check every analyzer is put through.
        .target(name: "MotionTestSupport", dependencies: ["MotionAnalysis", "MotionCore"], path: "Tests/MotionTestSupport"),
        .testTarget(name: "MotionSystemTests", dependencies: ["MotionSystem", "MotionTestSupport"]),
        .testTarget(name: "MotionCoreTests", dependencies: ["MotionCore", "MotionSystem", "CByteClass", "CZlib", "MotionTestSupport"]),
        .testTarget(name: "MotionAnalysisTests", dependencies: ["MotionAnalysis", "MotionCore", "MotionTestSupport"]),
        .testTarget(name: "MotionEvaluationTests", dependencies: ["MotionEvaluation", "MotionAnalysis", "MotionCore", "MotionTestSupport"]),
        .testTarget(name: "MotionEmulatorTests", dependencies: ["MotionEmulator", "MotionSystem", "MotionCore", "CUHID"]),
        .testTarget(name: "MotionCLITests", dependencies: ["MotionCLI", "MotionCore", "MotionTestSupport"]),
        .testTarget(name: "WakeCostTests", dependencies: ["WakeCost", "MotionCore", "MotionTestSupport"]),
        .testTarget(name: "MotionIIOTests", dependencies: ["MotionIIO", "MotionCore", "MotionSystem", "MotionTestSupport"]),
        .testTarget(name: "MotionFleetTests", dependencies: ["MotionFleet", "MotionMQTT", "MotionSession", "MotionCore", "MotionSystem", "MotionTestSupport"]),
        .testTarget(name: "MotionSessionTests", dependencies: ["MotionSession", "MotionAnalysis", "MotionCore", "MotionIIO", "MotionSystem", "WakeCost", "MotionTestSupport"]),
        .testTarget(name: "MotionFuzzTargetsTests", dependencies: ["MotionFuzzTargets", "MotionCore", "MotionTestSupport"]),
    ]
)
