// See include/CByteClass.h.
#include "CByteClass.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Bit i set when byte i of the little-endian word `w` is not an ASCII digit: after `^ 0x30`
// digits are 0...9; per byte, the high bit of `(x & 0x7F) + 0x76` is set when the low 7 bits
// are >= 10 (no carry leaves a byte), or-ed with the byte's own high bit; one multiplication
// gathers the 8 high bits into the top byte.
static inline uint64_t nondigits8(uint64_t w) {
    uint64_t x = w ^ 0x3030303030303030ULL;
    uint64_t high = (((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7676767676767676ULL) | x) & 0x8080808080808080ULL;
    return (high * 0x0002040810204081ULL) >> 56;
}

static inline uint64_t load_le64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

// Stores `w` in little-endian byte order (the bitmap's layout on every host).
static inline void store_le64(uint64_t *p, uint64_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(p, &w, 8);
}

void cbyteclass_nondigit_bitmap_portable(const uint8_t *bytes, size_t words, uint64_t *bitmap) {
    for (size_t k = 0; k < words; k++) {
        const uint8_t *p = bytes + 64 * k;
        uint64_t m = 0;
        for (int j = 0; j < 8; j++) m |= nondigits8(load_le64(p + 8 * j)) << (8 * j);
        store_le64(bitmap + k, m);
    }
}

#if defined(__SSE2__)
// 16 bytes -> 16 bits, set for digits: (b - '0') as unsigned is <= 9 exactly when
// min(b - '0', 9) == b - '0'; `pmovmskb` gathers the lanes' high bits.
static inline uint32_t digits16(const uint8_t *p) {
    const __m128i v = _mm_loadu_si128((const __m128i *)p);
    const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    const __m128i isDigit = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
    return (uint32_t)_mm_movemask_epi8(isDigit);
}
#endif

void cbyteclass_nondigit_bitmap(const uint8_t *bytes, size_t words, uint64_t *bitmap) {
#if defined(__SSE2__)
    for (size_t k = 0; k < words; k++) {
        const uint8_t *p = bytes + 64 * k;
        uint64_t digits = (uint64_t)digits16(p) | (uint64_t)digits16(p + 16) << 16
                        | (uint64_t)digits16(p + 32) << 32 | (uint64_t)digits16(p + 48) << 48;
        bitmap[k] = ~digits;
    }
#else
    cbyteclass_nondigit_bitmap_portable(bytes, words, bitmap);
#endif
}
