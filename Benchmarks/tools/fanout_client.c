// The watchers of the live lists' fan-out benchmark, in C so that the client's own CPU does not
// crowd wrk off the core they share (tools/fanout.py, which drives it, was the client before).
//
//   cc -O2 -o fanout_client fanout_client.c
//   fanout_client PORT WATCHERS WINDOWS SECONDS
//
// Opens WATCHERS Server-Sent Events streams on one epoll loop, to LiveFanout's `/ticks?limit=10`,
// `?limit=11`, … (WINDOWS windows, each holding the row that changes), 50 to a source address
// (127.1.x.y: the server allows 64 streams an address). It prints, a line each and flushed:
//   `greeted G`   once every stream has its greeting (or after 60 s);
//   `first F`     once every stream has had a batch (or 30 s after the greeting line; the driver
//                 starts the changes when it reads `greeted`);
// then pumps for SECONDS + 5 s and prints
//   `watcher EVENTS IN_ORDER REFRESHES` for each stream, and
//   `latency_ms P50 P99 MAX COUNT`, publish (the change's CLOCK_MONOTONIC time, written into the
//   row as `t=<ns>;n=<number>`) to the client's read.
#define _GNU_SOURCE  // memmem
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int fd;
    int head_done;
    long chunk_left;      // bytes of the current chunk still to come, with its CRLF
    char line[64];        // a chunk-size line being read
    int line_length;
    char *event;          // the event being read (SSE payload, CRLF kept as the server sent it)
    size_t event_length, event_capacity;
    int greeted, in_order, refreshes;
    long events, last_number;
} Watcher;

static uint64_t *latencies;
static size_t latency_count, latency_capacity;

static uint64_t now_ns(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

static void record_latency(uint64_t value) {
    if (latency_count == latency_capacity) {
        latency_capacity = latency_capacity ? latency_capacity * 2 : 1 << 16;
        latencies = realloc(latencies, latency_capacity * sizeof *latencies);
        if (!latencies) { perror("realloc"); exit(1); }
    }
    latencies[latency_count++] = value;
}

/// One whole event (the lines before a blank line): a greeting, a refresh or a tick.
static void handle_event(Watcher *watcher, const char *event, size_t length, uint64_t now) {
    if (!memmem(event, length, "data:", 5)) return;
    if (memmem(event, length, "watching from", 13)) { watcher->greeted = 1; return; }
    if (memmem(event, length, "action=\"refresh\"", 16)) { watcher->refreshes++; return; }
    const char *tick = memmem(event, length, "t=", 2);
    while (tick) {
        char *end;
        unsigned long long sent = strtoull(tick + 2, &end, 10);
        if (end > tick + 2 && strncmp(end, ";n=", 3) == 0) {
            long number = strtol(end + 3, NULL, 10);
            if (number != watcher->last_number + 1) watcher->in_order = 0;
            watcher->last_number = number;
            watcher->events++;
            record_latency(now - sent);
            return;
        }
        tick = memmem(tick + 2, length - (size_t)(tick + 2 - event), "t=", 2);
    }
}

/// The payload of a chunk: events end with a blank line (`\n\n`, `\r\n\r\n` or `\r\r`).
static void feed_payload(Watcher *watcher, const char *bytes, size_t count, uint64_t now) {
    for (size_t index = 0; index < count; index++) {
        char byte = bytes[index];
        if (byte == '\r') continue;
        if (watcher->event_length == watcher->event_capacity) {
            watcher->event_capacity = watcher->event_capacity ? watcher->event_capacity * 2 : 4096;
            watcher->event = realloc(watcher->event, watcher->event_capacity);
            if (!watcher->event) { perror("realloc"); exit(1); }
        }
        watcher->event[watcher->event_length++] = byte;
        size_t length = watcher->event_length;
        if (byte == '\n' && length >= 2 && watcher->event[length - 2] == '\n') {
            handle_event(watcher, watcher->event, length, now);
            watcher->event_length = 0;
        }
    }
}

/// Bytes from the socket: the response head once, then chunked framing around the payload.
static int feed(Watcher *watcher, const char *bytes, size_t count, uint64_t now) {
    size_t index = 0;
    if (!watcher->head_done) {
        // The head is small and arrives in the first read, before any event.
        const char *end = memmem(bytes, count, "\r\n\r\n", 4);
        if (!end || strncmp(bytes, "HTTP/1.1 200", 12) != 0) {
            fprintf(stderr, "unexpected response: %.*s\n", (int)(count < 200 ? count : 200), bytes);
            return -1;
        }
        watcher->head_done = 1;
        index = (size_t)(end + 4 - bytes);
    }
    while (index < count) {
        if (watcher->chunk_left == 0) {
            char byte = bytes[index++];
            if (byte == '\n') {
                watcher->line[watcher->line_length] = 0;
                watcher->line_length = 0;
                if (watcher->line[0] == 0) continue;  // the CRLF after a chunk
                watcher->chunk_left = strtol(watcher->line, NULL, 16) + 2;
            } else if (byte != '\r' && watcher->line_length < (int)sizeof watcher->line - 1) {
                watcher->line[watcher->line_length++] = byte;
            }
            continue;
        }
        size_t take = count - index < (size_t)watcher->chunk_left ? count - index : (size_t)watcher->chunk_left;
        feed_payload(watcher, bytes + index, take, now);
        index += take;
        watcher->chunk_left -= (long)take;
    }
    return 0;
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void pump(int epoll, Watcher *watchers, int timeout_ms) {
    struct epoll_event ready[256];
    static char buffer[1 << 16];
    int count = epoll_wait(epoll, ready, 256, timeout_ms);
    for (int index = 0; index < count; index++) {
        Watcher *watcher = &watchers[ready[index].data.u32];
        ssize_t received = recv(watcher->fd, buffer, sizeof buffer, 0);
        if (received > 0) {
            // Read after the bytes: an event published while this loop ran is never timed before it was sent.
            if (feed(watcher, buffer, (size_t)received, now_ns()) < 0) exit(1);
        } else if (received == 0 || (errno != EAGAIN && errno != EINTR)) {
            epoll_ctl(epoll, EPOLL_CTL_DEL, watcher->fd, NULL);
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s PORT WATCHERS WINDOWS SECONDS\n", argv[0]);
        return 64;
    }
    int port = atoi(argv[1]), count = atoi(argv[2]), windows = atoi(argv[3]), seconds = atoi(argv[4]);
    if (port <= 0 || count <= 0 || windows <= 0 || seconds <= 0) {
        fprintf(stderr, "PORT, WATCHERS, WINDOWS and SECONDS must be positive\n");
        return 64;
    }
    Watcher *watchers = calloc((size_t)count, sizeof *watchers);
    int epoll = epoll_create1(0);
    for (int index = 0; index < count; index++) {
        int group = index / 50;
        struct sockaddr_in source = {.sin_family = AF_INET}, server = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        char address[32];
        snprintf(address, sizeof address, "127.1.%d.%d", group / 250, group % 250 + 1);
        inet_pton(AF_INET, address, &source.sin_addr);
        inet_pton(AF_INET, "127.0.0.1", &server.sin_addr);
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&source, sizeof source) < 0 ||
            connect(fd, (struct sockaddr *)&server, sizeof server) < 0) {
            perror("connect");
            return 1;
        }
        char request[160];
        int length = snprintf(request, sizeof request, "GET /ticks?limit=%d HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n",
                              10 + index % windows);
        if (send(fd, request, (size_t)length, 0) != length) { perror("send"); return 1; }
        watchers[index] = (Watcher){.fd = fd, .in_order = 1};
        struct epoll_event interest = {.events = EPOLLIN, .data.u32 = (uint32_t)index};
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &interest);
    }

    int greeted = 0;
    for (uint64_t deadline = now_ns() + 60000000000u; greeted < count && now_ns() < deadline;) {
        pump(epoll, watchers, 100);
        greeted = 0;
        for (int index = 0; index < count; index++) greeted += watchers[index].greeted;
    }
    printf("greeted %d\n", greeted);
    fflush(stdout);

    int first = 0;
    for (uint64_t deadline = now_ns() + 30000000000u; first < count && now_ns() < deadline;) {
        pump(epoll, watchers, 100);
        first = 0;
        for (int index = 0; index < count; index++) first += watchers[index].events > 0;
    }
    printf("first %d\n", first);
    fflush(stdout);

    for (uint64_t end = now_ns() + (uint64_t)(seconds + 5) * 1000000000u; now_ns() < end;) pump(epoll, watchers, 50);

    for (int index = 0; index < count; index++)
        printf("watcher %ld %d %d\n", watchers[index].events, watchers[index].in_order, watchers[index].refreshes);
    qsort(latencies, latency_count, sizeof *latencies, compare);
    double p50 = 0, p99 = 0, max = 0;
    if (latency_count) {
        p50 = latencies[latency_count / 2] / 1e6;
        p99 = latencies[(size_t)(latency_count * 0.99) < latency_count ? (size_t)(latency_count * 0.99) : latency_count - 1] / 1e6;
        max = latencies[latency_count - 1] / 1e6;
    }
    printf("latency_ms %.2f %.2f %.2f %zu\n", p50, p99, max, latency_count);
    return 0;
}
