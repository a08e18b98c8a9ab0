import FuzzDriver

// `fuzz-board-profile`: libFuzzer on FuzzTargets' `board-profile` (see Fuzz/README.md).
FuzzDriver.run("board-profile")
