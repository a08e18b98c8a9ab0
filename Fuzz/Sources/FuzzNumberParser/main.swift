import FuzzDriver

// `fuzz-number-parser`: libFuzzer on FuzzTargets' `number-parser` (see Fuzz/README.md).
FuzzDriver.run("number-parser")
