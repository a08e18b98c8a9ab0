import FuzzDriver

// `fuzz-fleet-payload`: libFuzzer on FuzzTargets' `fleet-payload` (see Fuzz/README.md).
FuzzDriver.run("fleet-payload")
