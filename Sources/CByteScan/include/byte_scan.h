// Sixteen bytes at a time for the escapers in TableKit (HTMLWriter) and Cellar (JSONWriter).
//
// Swift's SIMD types compile to a loop over the lanes on this toolchain (Swift 6.3, Linux), so
// the vector tests are written with SSE2 intrinsics here, in `static inline` functions that the
// Swift compiler imports and inlines like its own code: no call, no library to link. SSE2 is part
// of every x86-64 CPU. Elsewhere (arm64) the same functions are plain loops with the same results.
//
// A flagged byte is one an escaper must look at: `& < > " '` (and `\` for JSON), controls
// (below 0x20), DEL and every byte from 0x80 up (non-ASCII text, which the Swift side checks for
// forbidden code points). The escapers copy the bytes before the first flagged one as they are.
#ifndef CELLAR_BYTE_SCAN_H
#define CELLAR_BYTE_SCAN_H

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

static inline __m128i cellar_scan_html_vector(__m128i v) {
    // Signed: the bytes from 0x80 up are negative, so one comparison flags them with the controls.
    __m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('&')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('<')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
    return _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
}

/// Copies the 16 bytes at `input` to `output` and returns a bit per byte (bit 0 the first byte):
/// set for the bytes HTML text needs a look at.
static inline uint32_t cellar_copy16_html(const uint8_t *input, uint8_t *output) {
    __m128i v = _mm_loadu_si128((const __m128i *)input);
    _mm_storeu_si128((__m128i *)output, v);
    return (uint32_t)_mm_movemask_epi8(cellar_scan_html_vector(v));
}

/// The same for a JSON string: the HTML set and `\`.
static inline uint32_t cellar_copy16_json(const uint8_t *input, uint8_t *output) {
    __m128i v = _mm_loadu_si128((const __m128i *)input);
    _mm_storeu_si128((__m128i *)output, v);
    __m128i m = _mm_or_si128(cellar_scan_html_vector(v), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    return (uint32_t)_mm_movemask_epi8(m);
}

/// The flags of two 8-byte words at once (the first in bits 0–7, the second in bits 8–15): a
/// text of 8 to 16 bytes is tested as its first and its last eight bytes.
static inline uint32_t cellar_scan_words_html(uint64_t first, uint64_t second) {
    __m128i v = _mm_set_epi64x((long long)second, (long long)first);
    return (uint32_t)_mm_movemask_epi8(cellar_scan_html_vector(v));
}

static inline uint32_t cellar_scan_words_json(uint64_t first, uint64_t second) {
    __m128i v = _mm_set_epi64x((long long)second, (long long)first);
    __m128i m = _mm_or_si128(cellar_scan_html_vector(v), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    return (uint32_t)_mm_movemask_epi8(m);
}

#else

static inline uint32_t cellar_flags16(const uint8_t *bytes, int json) {
    uint32_t flags = 0;
    for (int i = 0; i < 16; i++) {
        uint8_t b = bytes[i];
        int flagged = b < 0x20 || b >= 0x7F || b == '&' || b == '\'' || b == '<' || b == '>' || b == '"' || (json && b == '\\');
        flags |= (uint32_t)flagged << i;
    }
    return flags;
}

static inline uint32_t cellar_copy16_html(const uint8_t *input, uint8_t *output) {
    memcpy(output, input, 16);
    return cellar_flags16(input, 0);
}

static inline uint32_t cellar_copy16_json(const uint8_t *input, uint8_t *output) {
    memcpy(output, input, 16);
    return cellar_flags16(input, 1);
}

static inline uint32_t cellar_scan_words(uint64_t first, uint64_t second, int json) {
    uint8_t bytes[16];
    memcpy(bytes, &first, 8);
    memcpy(bytes + 8, &second, 8);
    return cellar_flags16(bytes, json);
}

static inline uint32_t cellar_scan_words_html(uint64_t first, uint64_t second) { return cellar_scan_words(first, second, 0); }
static inline uint32_t cellar_scan_words_json(uint64_t first, uint64_t second) { return cellar_scan_words(first, second, 1); }

#endif
#endif
