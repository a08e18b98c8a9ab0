// CByteClass: one byte-classification kernel for MotionCore's recording parser.
//
// Swift's portable SIMD types cannot turn a vector comparison into a bit mask with one
// instruction (x86 `pmovmskb`), so this one loop is written in C: SSE2 intrinsics on x86-64
// (part of its baseline, no runtime dispatch needed) and a portable 8-bytes-per-word version
// elsewhere. Only MotionCore imports this module, in RecordingByteBlock+Classification.swift.
#ifndef CBYTECLASS_H
#define CBYTECLASS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Classifies `words * 64` bytes at `bytes`: bit `i % 64` of `bitmap[i / 64]` is set when byte
/// `i` is not an ASCII digit ('0'...'9'); the words are stored in little-endian byte order, so
/// that bit `i` is also bit `i % 8` of the bitmap's byte `i / 8`. `bytes` must have `words * 64`
/// readable bytes; `bitmap` `words` writable words. Uses SSE2 on x86-64, else the portable version.
void cbyteclass_nondigit_bitmap(const uint8_t *bytes, size_t words, uint64_t *bitmap);

/// The same result computed 8 bytes at a time with 64-bit integer arithmetic only (the version
/// used where SSE2 is not available; exported so that tests compare the two).
void cbyteclass_nondigit_bitmap_portable(const uint8_t *bytes, size_t words, uint64_t *bitmap);

#ifdef __cplusplus
}
#endif

#endif
