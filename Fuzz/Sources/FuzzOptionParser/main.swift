import FuzzDriver

// `fuzz-option-parser`: libFuzzer on FuzzTargets' `option-parser` (see Fuzz/README.md).
FuzzDriver.run("option-parser")
