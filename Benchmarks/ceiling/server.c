/* ceiling: Cellar's /listbench responses written in plain C on libmicrohttpd.
 *
 * The same bytes as Cellar (`/listbench`, `/listbench.json`, `/healthz`): the same document,
 * rows, pager, JSON and headers. The ETag is derived as Cellar derives a versioned list's (the
 * listbench controller names a content version): a hash of a seed, the version, the list, the
 * format and the query, before the body is written; the seed is Cellar's rendering seed, which
 * depends on its binary, so it comes from CEILING_SEED (default 0) and ceiling-check.sh compares
 * the tags' form, not their digits.
 * Built on the c-mhd peer (shared/peers/peers/c-mhd/server.c): data set made at start-up,
 * escaping per request into one growable buffer handed to MHD (MHD_RESPMEM_MUST_FREE),
 * thread pool of 2 with epoll. It measures "the same response written in C" next to Cellar.
 *
 * Benchmarks/tools/ceiling-check.sh compares it with a Cellar binary byte for byte.
 *   make -C Benchmarks/ceiling && PORT=9202 Benchmarks/ceiling/ceiling */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TOTAL 100000
#define DEFAULT_LIMIT 100
#define MAX_LIMIT 10000
#define PARSE_CEILING (1LL << 40) /* Cellar's Page.ceiling: longer digit strings clamp */

typedef struct { const char *p; size_t n; } str_t;
typedef struct { int id; str_t name, role, email, bio; int engineer; } person_t;

static person_t *people;
static const char *ROLES[4] = {"Engineer", "Designer", "Manager", "Writer"};

static str_t dupf(const char *fmt, int i) {
    char tmp[256];
    int n = snprintf(tmp, sizeof tmp, fmt, i);
    char *p = malloc((size_t)n + 1);
    memcpy(p, tmp, (size_t)n + 1);
    return (str_t){p, (size_t)n};
}

static void make_dataset(void) {
    people = calloc(TOTAL, sizeof *people);
    for (int i = 1; i <= TOTAL; i++) {
        person_t *x = &people[i - 1];
        x->id = i;
        x->name = dupf(i % 7 == 0 ? "Person %d <b>&\"'" : "Person %d", i);
        x->role = (str_t){ROLES[i % 4], strlen(ROLES[i % 4])};
        x->email = dupf("person%d@example.com", i);
        x->bio = dupf("Bio of person %d: likes <tags> & \"quotes\" and 'apostrophes' in text.", i);
        x->engineer = (i % 4 == 0);
    }
}

/* ---- growable buffer ---- */
typedef struct { char *p; size_t len, cap; } buf_t;

static void buf_grow(buf_t *b, size_t extra) {
    if (b->len + extra <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra) cap *= 2;
    b->p = realloc(b->p, cap);
    if (!b->p) abort();
    b->cap = cap;
}
static inline void put(buf_t *b, const char *s, size_t n) {
    buf_grow(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}
#define PUTLIT(b, s) put((b), (s), sizeof(s) - 1)

/* Writes v's decimal digits at o (with commas every three digits when grouping); returns the end. */
static inline char *fmt_int(char *o, long long v, int grouping) {
    char tmp[32];
    int n = 0, digits = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        if (grouping && digits > 0 && digits % 3 == 0) tmp[sizeof tmp - 1 - n++] = ',';
        tmp[sizeof tmp - 1 - n++] = (char)('0' + u % 10);
        u /= 10;
        digits++;
    } while (u);
    if (v < 0) tmp[sizeof tmp - 1 - n++] = '-';
    memcpy(o, tmp + sizeof tmp - n, (size_t)n);
    return o + n;
}
static inline void put_int(buf_t *b, long long v) {
    buf_grow(b, 32);
    b->len = (size_t)(fmt_int(b->p + b->len, v, 0) - b->p);
}
static inline void put_grouped(buf_t *b, long long v) {
    buf_grow(b, 32);
    b->len = (size_t)(fmt_int(b->p + b->len, v, 1) - b->p);
}

/* HTML text and attribute values: `& < > " '` as Cellar's HTMLWriter writes them. */
static void put_html(buf_t *b, str_t s) {
    buf_grow(b, s.n * 6);
    char *o = b->p + b->len;
    for (size_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        switch (c) {
        case '&': memcpy(o, "&amp;", 5); o += 5; break;
        case '<': memcpy(o, "&lt;", 4); o += 4; break;
        case '>': memcpy(o, "&gt;", 4); o += 4; break;
        case '"': memcpy(o, "&quot;", 6); o += 6; break;
        case '\'': memcpy(o, "&#39;", 5); o += 5; break;
        default: *o++ = c;
        }
    }
    b->len = (size_t)(o - b->p);
}

/* A JSON string as Cellar's JSONWriter writes it: `"` and `\` backslash-escaped, \t \n \r, other
 * controls as \u00xx, `< > & '` and U+2028/U+2029 as \uXXXX, everything else (DEL, non-ASCII) as is. */
static const char HEX[] = "0123456789abcdef";
static void put_json(buf_t *b, str_t s) {
    buf_grow(b, s.n * 6 + 2);
    char *o = b->p + b->len;
    *o++ = '"';
    for (size_t i = 0; i < s.n; i++) {
        unsigned char c = (unsigned char)s.p[i];
        switch (c) {
        case '"': *o++ = '\\'; *o++ = '"'; break;
        case '\\': *o++ = '\\'; *o++ = '\\'; break;
        case '\t': *o++ = '\\'; *o++ = 't'; break;
        case '\n': *o++ = '\\'; *o++ = 'n'; break;
        case '\r': *o++ = '\\'; *o++ = 'r'; break;
        case '<': memcpy(o, "\\u003c", 6); o += 6; break;
        case '>': memcpy(o, "\\u003e", 6); o += 6; break;
        case '&': memcpy(o, "\\u0026", 6); o += 6; break;
        case '\'': memcpy(o, "\\u0027", 6); o += 6; break;
        case 0xE2:
            if (i + 2 < s.n && (unsigned char)s.p[i + 1] == 0x80 &&
                ((unsigned char)s.p[i + 2] == 0xA8 || (unsigned char)s.p[i + 2] == 0xA9)) {
                memcpy(o, (unsigned char)s.p[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
                o += 6;
                i += 2;
            } else {
                *o++ = (char)c;
            }
            break;
        default:
            if (c < 0x20) {
                memcpy(o, "\\u00", 4);
                o[4] = HEX[c >> 4];
                o[5] = HEX[c & 15];
                o += 6;
            } else {
                *o++ = (char)c;
            }
        }
    }
    *o++ = '"';
    b->len = (size_t)(o - b->p);
}

/* ---- Cellar's ETag (Sources/Cellar/ETag.swift) ---- */
/* `"` + 16 lowercase hex digits + `"` and a NUL: 19 bytes. */
static void quoted_hex(char *out, uint64_t v) {
    out[0] = '"';
    for (int k = 0; k < 16; k++) out[1 + k] = HEX[(v >> (60 - 4 * k)) & 15];
    out[17] = '"';
    out[18] = 0;
}

/* Cellar's derived validator (ListResponder.swift, ETag.derived; TableKit's StableHash): FNV-1a
 * over the seed's eight bytes and each text's length (eight bytes) and bytes, then MurmurHash3's
 * finaliser. */
static uint64_t derived_seed;
static const uint64_t FNV_PRIME = 0x00000100000001B3ULL;
static inline uint64_t fnv_u64(uint64_t h, uint64_t v) {
    for (int k = 0; k < 64; k += 8) h = (h ^ ((v >> k) & 0xff)) * FNV_PRIME;
    return h;
}
static inline uint64_t fnv_text(uint64_t h, const char *p, size_t n) {
    h = fnv_u64(h, n);
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * FNV_PRIME;
    return h;
}
static uint64_t derived_etag(const char *route, const char *format, int json_path, const char *query, size_t query_n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv_u64(h, derived_seed);
    h = fnv_text(h, "listbench-100000", 16);
    h = fnv_text(h, route, strlen(route));
    h = fnv_text(h, format, strlen(format));
    h = fnv_u64(h, (uint64_t)json_path);
    h = fnv_text(h, query, query_n);
    h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
    h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

/* Whether an If-None-Match header names `etag` (or is `*`): weak comparison, as Cellar's ETag.matches. */
static int etag_matches(const char *etag, const char *header) {
    if (!header) return 0;
    const char *p = header;
    for (;;) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *s = p, *e = end;
        while (s < e && (*s == ' ' || *s == '\t')) s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t')) e--;
        if (e - s == 1 && *s == '*') return 1;
        if (e - s >= 2 && s[0] == 'W' && s[1] == '/') s += 2;
        if (e - s == 18 && memcmp(s, etag, 18) == 0) return 1;
        if (!*end) return 0;
        p = end + 1;
    }
}

/* ---- headers every Cellar response carries ---- */
static const char CSP[] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                          "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
static uint32_t request_id_prefix;
static unsigned long request_counter;

static void add_common_headers(struct MHD_Response *r) {
    char id[17];
    uint64_t v = ((uint64_t)request_id_prefix << 32) |
                 (uint32_t)__atomic_add_fetch(&request_counter, 1, __ATOMIC_RELAXED);
    for (int k = 0; k < 16; k++) id[k] = HEX[(v >> (60 - 4 * k)) & 15];
    id[16] = 0;
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "strict-origin-when-cross-origin");
    MHD_add_response_header(r, "Content-Security-Policy", CSP);
    MHD_add_response_header(r, "X-Request-ID", id);
}

/* ---- paging (Cellar's Page for .paged(defaultLimit: 100, maxLimit: 10_000)) ---- */
typedef struct {
    long long offset, limit, requested; /* requested < 0: no limit in the query */
    int clamped;
    long long lower, upper;             /* the window: rows lower..<upper (0-based) */
    long long next, prev;               /* -1: none */
} page_t;

/* -1: absent or empty; -2: malformed (Cellar answers 400); else the value, at most 2^40. */
static long long parse_count(const char *v) {
    if (!v || !*v) return -1;
    long long x = 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9') return -2;
        if (x < PARSE_CEILING) x = x * 10 + (*p - '0');
    }
    return x < PARSE_CEILING ? x : PARSE_CEILING;
}

static int make_page(struct MHD_Connection *c, page_t *pg) {
    long long off = parse_count(MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "offset"));
    long long req = parse_count(MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "limit"));
    if (off == -2 || req == -2) return 0;
    if (off < 0) off = 0;
    if (off > TOTAL) off = TOTAL;
    long long wanted = req >= 0 ? req : DEFAULT_LIMIT;
    long long lim = wanted < 1 ? 1 : wanted;
    if (lim > MAX_LIMIT) lim = MAX_LIMIT;
    pg->offset = off;
    pg->limit = lim;
    pg->requested = req;
    pg->clamped = lim != wanted;
    pg->lower = off;
    pg->upper = off + lim < TOTAL ? off + lim : TOTAL;
    pg->next = off + lim < TOTAL ? off + lim : -1;
    pg->prev = off > 0 ? (off - lim > 0 ? off - lim : 0) : -1;
    return 1;
}

/* `path?offset=O<amp>limit=L`, with `amp` between the two (`&`, `&amp;` or `\u0026`). */
static inline void put_url(buf_t *b, const char *path, size_t pathn, long long offset, long long limit,
                           const char *amp, size_t ampn) {
    buf_grow(b, pathn + ampn + 64);
    char *o = b->p + b->len;
    memcpy(o, path, pathn); o += pathn;
    memcpy(o, "?offset=", 8); o += 8;
    o = fmt_int(o, offset, 0);
    memcpy(o, amp, ampn); o += ampn;
    memcpy(o, "limit=", 6); o += 6;
    o = fmt_int(o, limit, 0);
    b->len = (size_t)(o - b->p);
}

/* The Link header: next, prev, first. `out` has room for 256 bytes. */
static void link_header(char *out, const char *path, const page_t *pg) {
    buf_t b = {out, 0, 256};
    size_t pathn = strlen(path);
    if (pg->next >= 0) {
        PUTLIT(&b, "<"); put_url(&b, path, pathn, pg->next, pg->limit, "&", 1); PUTLIT(&b, ">; rel=\"next\", ");
    }
    if (pg->prev >= 0) {
        PUTLIT(&b, "<"); put_url(&b, path, pathn, pg->prev, pg->limit, "&", 1); PUTLIT(&b, ">; rel=\"prev\", ");
    }
    PUTLIT(&b, "<"); put_url(&b, path, pathn, 0, pg->limit, "&", 1); PUTLIT(&b, ">; rel=\"first\"");
    out[b.len] = 0;
}

/* ---- bodies ---- */
static const char PAGE_HEAD[] =
    "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>Listbench \xC2\xB7 Cellar</title>\n"
    "<link rel=\"stylesheet\" href=\"/static/app.css\">\n"
    "<link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">\n"
    "<script src=\"/static/app.js\" defer></script>\n</head>\n<body>\n"
    "<a class=\"skip-link\" href=\"#main\">Skip to content</a>\n"
    "<header class=\"site-header\"><a class=\"brand\" href=\"/\">Cellar</a><nav aria-label=\"Lists\"><ul>"
    "<li><a href=\"/\">Lists</a></li><li><a href=\"/people\">People</a></li>"
    "<li><a href=\"/settings\">Settings</a></li><li><a href=\"/catalog\">Catalog</a></li>"
    "<li><a href=\"/reports\">Reports</a></li><li><a href=\"/big\">Big</a></li>"
    "<li><a href=\"/xss\">Hostile data</a></li>"
    "<li><a href=\"/listbench\" aria-current=\"page\">Listbench</a></li><li><a href=\"/tasting-notes\">Tasting notes</a></li><li><a href=\"/to-drink\">To drink</a></li><li><a href=\"/roles\">Roles</a></li>"
    "<li><a href=\"/sensors\">Sensors</a></li>"
    "<li><a href=\"/db/regions\">Regions</a></li><li><a href=\"/db/wines\">Wine cellar</a></li></ul></nav></header>\n"
    "<main id=\"main\" class=\"table-view\" data-list=\"listbench\">\n"
    "<h1>Listbench</h1>\n";
static const char PAGE_TAIL[] =
    "<p id=\"live\" class=\"visually-hidden\" role=\"status\" aria-live=\"polite\"></p>\n</main>\n"
    "<footer class=\"site-footer\"><p>Rendered by Cellar with recycled cells.</p></footer>\n</body>\n</html>\n";

static void write_html(buf_t *b, const page_t *pg, int whole_page) {
    static const char path[] = "/listbench";
    if (whole_page) {
        PUTLIT(b, PAGE_HEAD);
        /* The links to the list's JSON and CSV keep the query but the page's place
           (Cellar's ListFormat.writeLinks): here `limit`, when asked for. */
        PUTLIT(b, "<p class=\"list-formats\">Also as <a rel=\"alternate\" type=\"application/json\" href=\"/listbench.json");
        if (pg->requested >= 0) { PUTLIT(b, "?limit="); put_int(b, pg->requested); }
        PUTLIT(b, "\">JSON</a> <a rel=\"alternate\" type=\"text/csv\" href=\"/listbench.csv");
        if (pg->requested >= 0) { PUTLIT(b, "?limit="); put_int(b, pg->requested); }
        PUTLIT(b, "\">CSV</a></p>\n");
    }
    if (pg->upper > pg->lower) {
        PUTLIT(b, "<section class=\"table-section\" data-section=\"0\">\n<ul class=\"rows\" id=\"section-0-rows\" data-section=\"0\">\n");
        for (long long i = pg->lower; i < pg->upper; i++) {
            const person_t *p = &people[i];
            if (p->engineer) {
                PUTLIT(b, "<li class=\"cell engineer\" id=\"row-"); put_int(b, p->id);
                PUTLIT(b, "\"><a class=\"cell-link\" href=\"/listbench/"); put_int(b, p->id);
                PUTLIT(b, "\"><span class=\"cell-title\">"); put_html(b, p->name);
                PUTLIT(b, "</span> <span class=\"badge\">"); put_html(b, p->role);
                PUTLIT(b, "</span></a> <a class=\"cell-email\" href=\"mailto:"); put_html(b, p->email);
                PUTLIT(b, "\">"); put_html(b, p->email);
                PUTLIT(b, "</a> <p class=\"cell-bio\">"); put_html(b, p->bio);
                PUTLIT(b, "</p></li>\n");
            } else {
                PUTLIT(b, "<li class=\"cell subtitle\" id=\"row-"); put_int(b, p->id);
                PUTLIT(b, "\"><a class=\"cell-link\" href=\"/listbench/"); put_int(b, p->id);
                PUTLIT(b, "\"><span class=\"cell-title\">"); put_html(b, p->name);
                PUTLIT(b, "</span> <span class=\"cell-subtitle\">"); put_html(b, p->role);
                PUTLIT(b, "</span></a></li>\n");
            }
        }
        PUTLIT(b, "</ul>\n</section>\n");
    }
    PUTLIT(b, "<nav class=\"pager\" id=\"list-pager\" aria-label=\"Pages\" data-first=\"");
    put_int(b, pg->upper > pg->lower ? pg->lower + 1 : 0);
    PUTLIT(b, "\" data-last=\""); put_int(b, pg->upper);
    PUTLIT(b, "\" data-total=\""); put_int(b, TOTAL);
    PUTLIT(b, "\">");
    if (pg->prev >= 0) {
        PUTLIT(b, "<a rel=\"prev\" href=\"");
        put_url(b, path, sizeof path - 1, pg->prev, pg->limit, "&amp;", 5);
        PUTLIT(b, "\">Previous</a> ");
    }
    PUTLIT(b, "<span aria-current=\"page\">");
    if (pg->upper <= pg->lower) {
        PUTLIT(b, "No rows here; the list has "); put_grouped(b, TOTAL);
    } else {
        PUTLIT(b, "Rows "); put_grouped(b, pg->lower + 1);
        PUTLIT(b, "\xE2\x80\x93"); put_grouped(b, pg->upper);
        PUTLIT(b, " of "); put_grouped(b, TOTAL);
    }
    PUTLIT(b, "</span>");
    if (pg->next >= 0) {
        PUTLIT(b, " <a class=\"load-more\" rel=\"next\" href=\"");
        put_url(b, path, sizeof path - 1, pg->next, pg->limit, "&amp;", 5);
        PUTLIT(b, "\" data-fragment-url=\"");
        put_url(b, path, sizeof path - 1, pg->next, pg->limit, "&amp;", 5);
        PUTLIT(b, "&amp;fragment=rows\">Load more</a>");
    }
    PUTLIT(b, "</nav>\n");
    if (whole_page) PUTLIT(b, PAGE_TAIL);
}

static void json_link(buf_t *b, long long offset, long long limit) {
    static const char path[] = "/listbench.json";
    if (offset < 0) { PUTLIT(b, "null"); return; }
    PUTLIT(b, "\"");
    put_url(b, path, sizeof path - 1, offset, limit, "\\u0026", 6);
    PUTLIT(b, "\"");
}

static void write_json(buf_t *b, const page_t *pg) {
    PUTLIT(b, "{\"title\":\"Listbench\",\"list\":\"/listbench\",\"meta\":{\"offset\":"); put_int(b, pg->offset);
    PUTLIT(b, ",\"limit\":"); put_int(b, pg->limit);
    PUTLIT(b, ",\"total\":"); put_int(b, TOTAL);
    PUTLIT(b, ",\"totalIsExact\":true,\"maxLimit\":"); put_int(b, MAX_LIMIT);
    PUTLIT(b, ",\"requestedLimit\":");
    if (pg->requested >= 0) put_int(b, pg->requested); else PUTLIT(b, "null");
    if (pg->clamped) PUTLIT(b, ",\"limitClamped\":true},\"links\":{\"self\":");
    else PUTLIT(b, ",\"limitClamped\":false},\"links\":{\"self\":");
    json_link(b, pg->offset, pg->limit);
    PUTLIT(b, ",\"first\":"); json_link(b, 0, pg->limit);
    PUTLIT(b, ",\"prev\":"); json_link(b, pg->prev, pg->limit);
    PUTLIT(b, ",\"next\":"); json_link(b, pg->next, pg->limit);
    PUTLIT(b, "},\"sections\":[");
    if (pg->upper > pg->lower) {
        PUTLIT(b, "{\"index\":0,\"id\":\"0\",\"header\":null,\"footer\":null,\"rows\":[");
        for (long long i = pg->lower; i < pg->upper; i++) {
            const person_t *p = &people[i];
            if (i != pg->lower) PUTLIT(b, ",");
            PUTLIT(b, "{\"id\":\""); put_int(b, p->id);
            if (p->engineer) PUTLIT(b, "\",\"cell\":\"EngineerCell\",\"href\":\"/listbench/");
            else PUTLIT(b, "\",\"cell\":\"SubtitleCell\",\"href\":\"/listbench/");
            put_int(b, p->id);
            PUTLIT(b, "\",\"item\":{\"id\":"); put_int(b, p->id);
            PUTLIT(b, ",\"name\":"); put_json(b, p->name);
            PUTLIT(b, ",\"role\":"); put_json(b, p->role);
            PUTLIT(b, ",\"email\":"); put_json(b, p->email);
            PUTLIT(b, ",\"bio\":"); put_json(b, p->bio);
            PUTLIT(b, "}}");
        }
        PUTLIT(b, "]}");
    }
    PUTLIT(b, "]}\n");
}

/* ---- request handling ---- */
static const char HEALTH[] = "{\"status\":\"ok\",\"version\":\"0.1.0\"}\n";

static enum MHD_Result send_plain(struct MHD_Connection *c, unsigned int status, const char *body) {
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    add_common_headers(r);
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_list(struct MHD_Connection *c, int json) {
    page_t pg;
    if (!make_page(c, &pg)) return send_plain(c, MHD_HTTP_BAD_REQUEST, "Bad Request");
    int whole_page = 1;
    if (!json) {
        const char *fragment = NULL;
        size_t fragment_n = 0;
        if (MHD_lookup_connection_value_n(c, MHD_GET_ARGUMENT_KIND, "fragment", 8, &fragment, &fragment_n) == MHD_YES) {
            if (!fragment || strcmp(fragment, "rows") != 0) return send_plain(c, MHD_HTTP_BAD_REQUEST, "Bad Request");
            whole_page = 0;
        }
    }
    /* The query as it came (`offset=…&limit=…`, the benchmark's form), for the validator. */
    char query[128];
    size_t query_n = 0;
    const char *offset = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "offset");
    const char *limit = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "limit");
    if (offset) query_n += (size_t)snprintf(query + query_n, sizeof query - query_n, "offset=%.40s", offset);
    if (offset && limit) query[query_n++] = '&';
    if (limit) query_n += (size_t)snprintf(query + query_n, sizeof query - query_n, "limit=%.40s", limit);

    char link[256], etag[19];
    link_header(link, json ? "/listbench.json" : "/listbench", &pg);
    quoted_hex(etag, derived_etag("/listbench", json ? "json" : (whole_page ? "page" : "fragment"), json, query, query_n));
    int not_modified = etag_matches(etag, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match"));

    struct MHD_Response *r;
    if (not_modified) {
        r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    } else {
        buf_t b = {0};
        long long rows = pg.upper - pg.lower;
        buf_grow(&b, (size_t)rows * (json ? 270 : 250) + 4096);
        if (json) write_json(&b, &pg); else write_html(&b, &pg, whole_page);
        r = MHD_create_response_from_buffer(b.len, b.p, MHD_RESPMEM_MUST_FREE);
    }
    MHD_add_response_header(r, "Content-Type", json ? "application/json" : "text/html; charset=utf-8");
    MHD_add_response_header(r, "Vary", "Accept, HX-Request");
    MHD_add_response_header(r, "Cache-Control", "no-cache");
    MHD_add_response_header(r, "Link", link);
    MHD_add_response_header(r, "ETag", etag);
    add_common_headers(r);
    enum MHD_Result ret = MHD_queue_response(c, not_modified ? MHD_HTTP_NOT_MODIFIED : MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_health(struct MHD_Connection *c) {
    struct MHD_Response *r = MHD_create_response_from_buffer(sizeof HEALTH - 1, (void *)HEALTH, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(r, "Content-Type", "application/json");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    add_common_headers(r);
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* The path without one trailing slash (Cellar's router ignores one) equals `route`. */
static int path_is(const char *url, const char *route, size_t n) {
    if (strncmp(url, route, n) != 0) return 0;
    return url[n] == 0 || (url[n] == '/' && url[n + 1] == 0);
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload_data, size_t *upload_data_size,
                               void **con_cls) {
    (void)cls; (void)version; (void)upload_data; (void)upload_data_size;
    /* MHD calls us first right after the headers. If we queue a response on that first
     * call, libmicrohttpd 0.9.75 answers "Connection: close" (it cannot know the body was
     * consumed), which kills keep-alive. So: acknowledge the first call, respond on the next. */
    static int first_call_marker;
    if (*con_cls == NULL) { *con_cls = &first_call_marker; return MHD_YES; }
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) return send_plain(c, MHD_HTTP_NOT_FOUND, "Not Found");
    if (path_is(url, "/listbench", 10)) return send_list(c, 0);
    if (path_is(url, "/listbench.json", 15)) return send_list(c, 1);
    if (path_is(url, "/healthz", 8)) return send_health(c);
    return send_plain(c, MHD_HTTP_NOT_FOUND, "Not Found");
}

int main(void) {
    const char *ps = getenv("PORT");
    int port = ps ? atoi(ps) : 8080;
    make_dataset();
    request_id_prefix = (uint32_t)time(NULL) * 2654435761u ^ (uint32_t)getpid();

    const char *seed = getenv("CEILING_SEED");
    derived_seed = seed ? strtoull(seed, NULL, 0) : 0;

    /* block SIGINT/SIGTERM before MHD starts its threads so that sigwait() below gets them */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);

    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG, (uint16_t)port, NULL, NULL,
        &handler, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)2,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
        MHD_OPTION_END);
    if (!d) { fprintf(stderr, "MHD_start_daemon failed on port %d\n", port); return 1; }
    fprintf(stderr, "ceiling listening on 127.0.0.1:%d\n", port);

    int sig;
    sigwait(&set, &sig);
    MHD_stop_daemon(d);
    return 0;
}
