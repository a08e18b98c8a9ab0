import FuzzDriver

// `fuzz-recording-reader`: libFuzzer on FuzzTargets' `recording-reader` (see Fuzz/README.md).
FuzzDriver.run("recording-reader")
