#ifndef CFUZZER_DRIVER_H
#define CFUZZER_DRIVER_H
// libFuzzer's driver (compiler-rt, linked by -sanitize=fuzzer): runs the fuzzing loop over the
// command line's options and corpus folders, calling `callback` once per input.
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
