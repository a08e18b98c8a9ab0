// Declarations only: LLVMFuzzerRunDriver is defined by libFuzzer (-sanitize=fuzzer).
#include "cfuzzer_driver.h"
