/* SQLite's own single-writer rate, the bar Cellar's write API is measured against: one row a
 * transaction (BEGIN IMMEDIATE; INSERT or UPDATE; COMMIT), in WAL mode, with the durability
 * Cellar uses (synchronous=NORMAL) or FULL, for a number of seconds; prints commits a second.
 *   cc -O2 -o commit-loop commit-loop.c -lsqlite3
 *   ./commit-loop FILE insert|update|update-random NORMAL|FULL SECONDS
 * `update` changes the rows in id order (the bar's loop, kept as it was measured since); `update-random`
 * picks each row at random among the first 10,000, as Benchmarks/write/update.lua does over HTTP.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s FILE insert|update|update-random NORMAL|FULL SECONDS\n", argv[0]);
        return 2;
    }
    int random_ids = strcmp(argv[2], "update-random") == 0;
    int update = random_ids || strcmp(argv[2], "update") == 0;
    srandom(1);
    double seconds = atof(argv[4]);
    sqlite3 *db;
    check(sqlite3_open(argv[1], &db), db, "open");
    char pragmas[200];
    snprintf(pragmas, sizeof pragmas, "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s; PRAGMA foreign_keys=ON", argv[3]);
    check(sqlite3_exec(db, pragmas, 0, 0, 0), db, "pragmas");
    sqlite3_busy_timeout(db, 3000);
    sqlite3_stmt *begin, *commit, *change;
    check(sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, 0), db, "prepare");
    check(sqlite3_prepare_v2(db, "COMMIT", -1, &commit, 0), db, "prepare");
    check(sqlite3_prepare_v2(db,
              update ? "UPDATE items SET n = ? WHERE id = ?" : "INSERT INTO items(name, n) VALUES ('a bottle', ?)", -1, &change, 0),
        db, "prepare");
    long count = 0;
    double start = now(), end = start + seconds;
    while (now() < end) {
        check(sqlite3_step(begin), db, "begin");
        sqlite3_reset(begin);
        sqlite3_bind_int64(change, 1, count);
        if (update) sqlite3_bind_int64(change, 2, random_ids ? 1 + random() % 10000 : 1 + count % 10000);
        check(sqlite3_step(change), db, "change");
        sqlite3_reset(change);
        check(sqlite3_step(commit), db, "commit");
        sqlite3_reset(commit);
        count++;
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    printf("%.0f %.1f\n", count / (now() - start), cpu * 1e6 / count);
    sqlite3_close(db);
    return 0;
}
