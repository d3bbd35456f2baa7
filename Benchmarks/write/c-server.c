/* What an HTTP server in C can do of #38's write bar on this machine: libmicrohttpd answering
 * every POST with one SQLite commit (WAL, synchronous=NORMAL, BEGIN IMMEDIATE, one prepared
 * INSERT into run.sh's items table) and {"ok": true}; no JSON read, no token, no check. Beside
 * the commit loop it shows how much of a write's cost is the HTTP exchange itself here.
 *   cc -O2 -o c-server c-server.c -lmicrohttpd -lsqlite3 -lpthread
 *   taskset -c 1 ./c-server FILE PORT THREADS [SPIN_US] &   # then wrk with insert.lua, as run.sh does
 * SPIN_US makes each answer also spend that many µs of user time (a busy wait on the monotonic
 * clock): a server as slow as Cellar in user space, to see what that does to its kernel time.
 */
#include <microhttpd.h>
#include <sqlite3.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static long spin_nanoseconds;
static void spin(void) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do clock_gettime(CLOCK_MONOTONIC, &now);
    while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < spin_nanoseconds);
}
static sqlite3 *db; static sqlite3_stmt *begin, *ins, *commit;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
    const char *version, const char *data, size_t *size, void **state) {
    (void)cls; (void)url; (void)method; (void)version; (void)data;
    if (*state == NULL) { *state = (void *)1; return MHD_YES; }
    if (*size) { *size = 0; return MHD_YES; }
    pthread_mutex_lock(&lock);
    sqlite3_step(begin); sqlite3_reset(begin);
    sqlite3_bind_text(ins, 1, "a bottle", -1, SQLITE_STATIC); sqlite3_bind_int(ins, 2, 1);
    sqlite3_step(ins); sqlite3_reset(ins);
    sqlite3_step(commit); sqlite3_reset(commit);
    pthread_mutex_unlock(&lock);
    if (spin_nanoseconds) spin();
    static const char body[] = "{\"ok\": true}";
    struct MHD_Response *r = MHD_create_response_from_buffer(sizeof body - 1, (void *)body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(r, "Content-Type", "application/json");
    enum MHD_Result ok = MHD_queue_response(c, 201, r);
    MHD_destroy_response(r);
    return ok;
}
int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s FILE PORT THREADS [SPIN_US]\n", argv[0]); return 2; }
    if (argc > 4) spin_nanoseconds = atol(argv[4]) * 1000;
    sqlite3_open(argv[1], &db);
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON", 0, 0, 0);
    sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, 0);
    sqlite3_prepare_v2(db, "INSERT INTO items(name, n) VALUES (?, ?)", -1, &ins, 0);
    sqlite3_prepare_v2(db, "COMMIT", -1, &commit, 0);
    struct MHD_Daemon *d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, atoi(argv[2]), NULL, NULL,
        handler, NULL, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)atoi(argv[3]), MHD_OPTION_END);
    if (!d) return 1;
    for (;;) pause();
}
