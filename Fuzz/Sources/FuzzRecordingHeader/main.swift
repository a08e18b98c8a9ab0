import FuzzDriver

// `fuzz-recording-header`: libFuzzer on FuzzTargets' `recording-header` (see Fuzz/README.md).
FuzzDriver.run("recording-header")
