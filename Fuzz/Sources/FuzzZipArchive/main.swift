import FuzzDriver

// `fuzz-zip-archive`: libFuzzer on FuzzTargets' `zip-archive` (see Fuzz/README.md).
FuzzDriver.run("zip-archive")
