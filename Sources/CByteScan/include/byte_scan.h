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

// The escapes of the ASCII bytes that need one, each packed little-endian for one 8-byte store
// with its length (1 to 6) in the top byte; 0 for a byte the caller looks at (DEL, a control HTML
// forbids, non-ASCII text). A look-up instead of a `switch`, which compiled to an indirect jump
// that the text's mix of `< > & " '` kept mispredicting (a quarter of the HTML escaper's time
// under `perf`). Static constants in a header: no initialisation, unlike a Swift global.
// HTMLWriterTests, DenseEscapingTests and DenseJSONEscapingTests hold every entry to what it spells.

static const uint64_t cellar_html_entities[64] = {
    // The whitespace controls HTML allows, as themselves (length 1): a text with line breaks stays
    // in the vector loop instead of going back to the caller at every one.
    [0x09] = 0x0100000000000009ULL,
    [0x0A] = 0x010000000000000AULL,
    [0x0C] = 0x010000000000000CULL,
    [0x0D] = 0x010000000000000DULL,
    [0x22] = 0x06003B746F757126ULL, /* &quot; */
    [0x26] = 0x0500003B706D6126ULL, /* &amp; */
    [0x27] = 0x0500003B39332326ULL, /* &#39; */
    [0x3C] = 0x040000003B746C26ULL, /* &lt; */
    [0x3E] = 0x040000003B746726ULL, /* &gt; */
};
static const uint64_t cellar_json_escapes[128] = {
    [0x00] = 0x060030303030755CULL,
    [0x01] = 0x060031303030755CULL,
    [0x02] = 0x060032303030755CULL,
    [0x03] = 0x060033303030755CULL,
    [0x04] = 0x060034303030755CULL,
    [0x05] = 0x060035303030755CULL,
    [0x06] = 0x060036303030755CULL,
    [0x07] = 0x060037303030755CULL,
    [0x08] = 0x060038303030755CULL,
    [0x09] = 0x020000000000745CULL,
    [0x0A] = 0x0200000000006E5CULL,
    [0x0B] = 0x060062303030755CULL,
    [0x0C] = 0x060063303030755CULL,
    [0x0D] = 0x020000000000725CULL,
    [0x0E] = 0x060065303030755CULL,
    [0x0F] = 0x060066303030755CULL,
    [0x10] = 0x060030313030755CULL,
    [0x11] = 0x060031313030755CULL,
    [0x12] = 0x060032313030755CULL,
    [0x13] = 0x060033313030755CULL,
    [0x14] = 0x060034313030755CULL,
    [0x15] = 0x060035313030755CULL,
    [0x16] = 0x060036313030755CULL,
    [0x17] = 0x060037313030755CULL,
    [0x18] = 0x060038313030755CULL,
    [0x19] = 0x060039313030755CULL,
    [0x1A] = 0x060061313030755CULL,
    [0x1B] = 0x060062313030755CULL,
    [0x1C] = 0x060063313030755CULL,
    [0x1D] = 0x060064313030755CULL,
    [0x1E] = 0x060065313030755CULL,
    [0x1F] = 0x060066313030755CULL,
    [0x22] = 0x020000000000225CULL,
    [0x26] = 0x060036323030755CULL,
    [0x27] = 0x060037323030755CULL,
    [0x3C] = 0x060063333030755CULL,
    [0x3E] = 0x060065333030755CULL,
    [0x5C] = 0x0200000000005C5CULL,
};

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

/// Escapes text from `input[*index]` on into `out`, sixteen bytes at a time, for as long as
/// every flagged byte has an escape in `table` (`table_size` entries; see `cellar_html_entities`);
/// stops at the first flagged byte that has none (DEL, a control HTML forbids, non-ASCII text),
/// for the caller to handle, or at `count`. Advances `*index` past what it read and returns where
/// the output ends. Writes up to 16 bytes past that: the caller's output must have room for them
/// on top of 6 bytes per input byte.
///
/// A block of sixteen is copied in one store and tested at once; each flagged byte in it is then
/// replaced in place — its escape stored, and the block's remaining bytes stored again after it —
/// without testing the block again. So a text dense with `< > & " '` (a bio, a hostile name) costs
/// a few instructions per escape that do not wait on one another, instead of a new scan each.
static inline uint8_t *cellar_escape_blocks(const uint8_t *input, size_t count, size_t *index, uint8_t *out,
                                            const uint64_t *table, size_t table_size, int json) {
    size_t i = *index;
    // The last bytes of a text, padded with zeros, for a block that would end past the text.
    uint8_t tail[48];
    while (i < count) {
        const uint8_t *block = input + i;
        size_t length = 16;
        if (i + 16 > count) {
            length = count - i;
            const __m128i zero = _mm_setzero_si128();
            _mm_storeu_si128((__m128i *)(tail + 16), zero);
            _mm_storeu_si128((__m128i *)(tail + 32), zero);
            if (count >= 16) {
                // The text's last sixteen bytes; the block starts where the unread ones do.
                _mm_storeu_si128((__m128i *)tail, _mm_loadu_si128((const __m128i *)(input + count - 16)));
                block = tail + 16 - length;
            } else {
                // A text shorter than a block: copied with two loads that overlap, none past it.
                _mm_storeu_si128((__m128i *)tail, zero);
                const uint8_t *from = input + i;
                if (length >= 8) {
                    uint64_t first, last;
                    memcpy(&first, from, 8);
                    memcpy(&last, from + length - 8, 8);
                    memcpy(tail, &first, 8);
                    memcpy(tail + length - 8, &last, 8);
                } else if (length >= 4) {
                    uint32_t first, last;
                    memcpy(&first, from, 4);
                    memcpy(&last, from + length - 4, 4);
                    memcpy(tail, &first, 4);
                    memcpy(tail + length - 4, &last, 4);
                } else {
                    tail[0] = from[0];
                    tail[length / 2] = from[length / 2];
                    tail[length - 1] = from[length - 1];
                }
                block = tail;
            }
        }
        __m128i v = _mm_loadu_si128((const __m128i *)block);
        _mm_storeu_si128((__m128i *)out, v);
        __m128i flags = cellar_scan_html_vector(v);
        if (json) flags = _mm_or_si128(flags, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        uint32_t mask = (uint32_t)_mm_movemask_epi8(flags) & (length == 16 ? 0xFFFFu : ((1u << length) - 1u));
        // The block's bytes written so far, and where the next block starts (both from `i`).
        size_t done = 0;
        size_t next = length;
        while (mask != 0) {
            size_t flagged = (size_t)__builtin_ctz(mask);
            out += flagged - done;
            uint8_t byte = block[flagged];
            uint64_t escape = byte < table_size ? table[byte] : 0;
            if (escape == 0) {
                *index = i + flagged;
                return out;
            }
            memcpy(out, &escape, 8);
            out += escape >> 56;
            done = flagged + 1;
            mask &= mask - 1;
            if (length == 16 && i + done + 16 > count) {
                // Too near the end to load sixteen more: the next block (the padded copy) starts here.
                next = done;
                break;
            }
            // The rest of the block again, after the escape (the padded copy has room for it).
            _mm_storeu_si128((__m128i *)out, _mm_loadu_si128((const __m128i *)(block + done)));
        }
        out += next - done;
        i += next;
    }
    *index = i;
    return out;
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

static inline uint32_t cellar_scan_words(uint64_t first, uint64_t second, int json) {
    uint8_t bytes[16];
    memcpy(bytes, &first, 8);
    memcpy(bytes + 8, &second, 8);
    return cellar_flags16(bytes, json);
}

static inline uint32_t cellar_scan_words_html(uint64_t first, uint64_t second) { return cellar_scan_words(first, second, 0); }
static inline uint32_t cellar_scan_words_json(uint64_t first, uint64_t second) { return cellar_scan_words(first, second, 1); }

/// `cellar_escape_blocks` a byte at a time, where there is no SSE2.
static inline uint8_t *cellar_escape_blocks(const uint8_t *input, size_t count, size_t *index, uint8_t *out,
                                            const uint64_t *table, size_t table_size, int json) {
    (void)json;
    size_t i = *index;
    while (i < count) {
        uint8_t byte = input[i];
        uint64_t escape = byte < table_size ? table[byte] : 0;
        if (escape != 0) {
            memcpy(out, &escape, 8);
            out += escape >> 56;
        } else if (byte < 0x20 || byte >= 0x7F) {
            break;
        } else {
            *out++ = byte;
        }
        i++;
    }
    *index = i;
    return out;
}

#endif

/// HTML text or attribute value: `& < > " '` become entities (see `cellar_escape_blocks`).
static inline uint8_t *cellar_escape_html(const uint8_t *input, size_t count, size_t *index, uint8_t *out) {
    return cellar_escape_blocks(input, count, index, out, cellar_html_entities, 64, 0);
}

/// The inside of a JSON string: `"`, `\`, controls and `< > & '` escaped (see `cellar_escape_blocks`).
static inline uint8_t *cellar_escape_json(const uint8_t *input, size_t count, size_t *index, uint8_t *out) {
    return cellar_escape_blocks(input, count, index, out, cellar_json_escapes, 128, 1);
}

#endif
