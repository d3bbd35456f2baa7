import CellarDatabase
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// PostgresConnection against a real server: the throwaway cluster `make test-postgres` starts
/// (Tests/postgres/cluster.sh) and names in `CELLAR_TEST_POSTGRES` (the test role's URL) and
/// `CELLAR_TEST_POSTGRES_CLUSTER` (its folder, for the tests that stop and restart it). Without
/// them the suite is skipped, so a plain `swift test` needs no server.
///
/// Serialized: some tests stop the server or freeze a backend, which the others must not see.
/// No assertion measures time closely: a 1 s deadline against a 30 s sleep, at most.
@Suite(.serialized, .enabled(if: PostgresTestServer.url != nil, "CELLAR_TEST_POSTGRES is not set (make test-postgres sets it)"))
struct PostgresConnectionTests {
    /// The test role's password, from the URL: what no error may contain.
    static var password: String { PostgresTestServer.components?.password ?? "no password in CELLAR_TEST_POSTGRES" }

    func connect(statementTimeout: Double = 30) throws -> PostgresConnection {
        let url = try #require(PostgresTestServer.url)
        return try PostgresConnection(PostgresConnectionInfo(url), statementTimeout: statementTimeout, deadline: .seconds(30))
    }

    /// The test URL with its password replaced.
    static func url(password: String) throws -> String {
        var components = try #require(PostgresTestServer.components)
        components.password = password
        return try #require(components.string)
    }

    /// Every way an error or a value can be printed, for the password checks.
    static func printed(_ value: Any) -> String {
        var dumped = ""
        dump(value, to: &dumped)
        return "\(value)\n\(String(reflecting: value))\n\(dumped)"
    }

    // MARK: Connecting

    @Test func connectsWithTheSessionSettings() throws {
        let connection = try connect(statementTimeout: 12)
        #expect(connection.isConnected)
        #expect(connection.connectionCount == 1)
        #expect((connection.serverVersion ?? 0) >= 150_000)
        let rows = try connection.query(
            "SELECT current_user, current_setting('statement_timeout'), current_setting('bytea_output'), current_setting('client_encoding'), current_setting('application_name'), pg_backend_pid()",
            deadline: .seconds(30))
        #expect(rows.count == 1)
        #expect(rows.columnNames.first == "current_user")
        #expect(rows.rows[0][0] == .text("cellar_test"))
        #expect(rows.rows[0][1] == .text("12s"))
        #expect(rows.rows[0][2] == .text("hex"))
        #expect(rows.rows[0][3] == .text("UTF8"))
        #expect(rows.rows[0][4] == .text("cellar"))
        #expect(rows.rows[0][5] == .integer(Int64(try #require(connection.backendProcessID))))
        // The description says where, and never the password.
        let description = connection.info.description
        #expect(description.contains("host=127.0.0.1") && description.contains("password=***"), "\(description)")
        #expect(!Self.printed(connection.info).contains(Self.password))
    }

    @Test func aKeyValueStringConnectsToo() throws {
        let components = try #require(PostgresTestServer.components)
        let info = try PostgresConnectionInfo(
            "host=\(components.host ?? "") port=\(components.port ?? 0) dbname=cellar_test user=cellar_test password='\(Self.password)'")
        let connection = try PostgresConnection(info, deadline: .seconds(30))
        #expect(try connection.query("SELECT 1", deadline: .seconds(30)).rows == [[.integer(1)]])
        #expect(!Self.printed(info).contains(Self.password))
    }

    /// TLS is libpq's `sslmode`, in the URL: the test cluster has a self-signed certificate for
    /// 127.0.0.1 (Tests/postgres/cluster.sh), its copy in the cluster's folder as `root.crt`.
    @Test(.enabled(if: PostgresTestServer.cluster != nil, "CELLAR_TEST_POSTGRES_CLUSTER is not set"))
    func tlsIsTheURLsSSLMode() throws {
        let url = try #require(PostgresTestServer.url)
        let rootCertificate = try #require(PostgresTestServer.cluster) + "/root.crt"
        func encrypted(_ query: String) throws -> DatabaseValue? {
            let connection = try PostgresConnection(PostgresConnectionInfo(url + "?" + query), deadline: .seconds(30))
            return try connection.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", deadline: .seconds(30)).rows.first?.first
        }
        #expect(try encrypted("sslmode=require") == .integer(1))
        #expect(try encrypted("sslmode=verify-full&sslrootcert=\(rootCertificate)") == .integer(1))
        #expect(try encrypted("sslmode=disable") == .integer(0))
        // A result much larger than a TLS record (16 kB) arrives whole: input OpenSSL has decrypted
        // is read before the socket is waited on.
        let connection = try PostgresConnection(PostgresConnectionInfo(url + "?sslmode=require"), deadline: .seconds(30))
        let rows = try connection.query("SELECT repeat('x', 1000) || n FROM generate_series(1, 2000) AS n", deadline: .seconds(30))
        #expect(rows.count == 2000)
        // A certificate that cannot be verified is a refusal, said without the password.
        let error = try #require(throws: PostgresError.self) {
            _ = try PostgresConnection(PostgresConnectionInfo(url + "?sslmode=verify-full&sslrootcert=/nonexistent/root.crt"), deadline: .seconds(30))
        }
        #expect(!error.isTransient, "\(error)")
        #expect(!Self.printed(error).contains(Self.password))
    }

    // MARK: Values

    @Test func eachTypeReadsAsTheValueSQLiteWouldHold() throws {
        let connection = try connect()
        let rows = try connection.query(
            """
            SELECT 42::int2, -7::int4, 9223372036854775807::int8, '-9223372036854775808'::int8, 1.5::float4, 0.1::float8,
                   'Infinity'::float8, '-Infinity'::float8, 12345678901234567890.123456789::numeric, true, false,
                   'héllo ✓'::text, 'x'::varchar(3), 'ab'::char(3), '\\x00ff10'::bytea, ''::bytea, '2024-02-29'::date,
                   '2024-02-29 12:34:56.789'::timestamp, '{"a": [1, 2]}'::json, '{"a": [1, 2]}'::jsonb,
                   NULL::int4, NULL::text, NULL::bytea, 'NaN'::float8, 26::oid
            """, deadline: .seconds(30))
        let values = try #require(rows.rows.first)
        let expected: [DatabaseValue] = [
            .integer(42), .integer(-7), .integer(.max), .integer(.min), .real(1.5), .real(0.1),
            .real(.infinity), .real(-.infinity), .text("12345678901234567890.123456789"), .integer(1), .integer(0),
            .text("héllo ✓"), .text("x"), .text("ab "), .blob([0, 255, 16]), .blob([]), .text("2024-02-29"),
            .text("2024-02-29 12:34:56.789"), .text(#"{"a": [1, 2]}"#), .text(#"{"a": [1, 2]}"#),
            .null, .null, .null,
        ]
        #expect(Array(values.prefix(expected.count)) == expected)
        guard case .real(let nan) = values[23] else {
            Issue.record("NaN read as \(values[23])")
            return
        }
        #expect(nan.isNaN)
        #expect(values[24] == .integer(26))
        #expect(rows.columnTypeOID(0) == 21 && rows.columnTypeOID(14) == 17)
        #expect(rows.withText(row: 0, column: 8) { String(decoding: $0, as: UTF8.self) } == "12345678901234567890.123456789")
        #expect(rows.isNull(row: 0, column: 20) && !rows.isNull(row: 0, column: 0))
    }

    @Test func parametersRoundTripThroughATable() throws {
        let connection = try connect()
        try connection.execute(
            "CREATE TEMP TABLE kinds(i int8, r float8, n numeric, b bool, t text, y bytea, d timestamptz)", deadline: .seconds(30))
        _ = try connection.query(
            "INSERT INTO kinds VALUES ($1, $2, $3, $4, $5, $6, $7)",
            ["-9223372036854775808", "2.5e-300", "0.1000000000000000000001", "true", "ünïcode\ttab", "\\xdeadbeef", "2024-01-02 03:04:05+00"],
            deadline: .seconds(30))
        _ = try connection.query(
            "INSERT INTO kinds VALUES ($1, $2, $3, $4, $5, $6, $7)", [nil, nil, nil, nil, nil, nil, nil], deadline: .seconds(30))
        try connection.execute("SET TimeZone = 'UTC'", deadline: .seconds(30))
        let rows = try connection.query("SELECT * FROM kinds ORDER BY i NULLS LAST", deadline: .seconds(30)).rows
        #expect(
            rows == [
                [
                    .integer(.min), .real(2.5e-300), .text("0.1000000000000000000001"), .integer(1), .text("ünïcode\ttab"),
                    .blob([0xde, 0xad, 0xbe, 0xef]), .text("2024-01-02 03:04:05+00"),
                ],
                Array(repeating: .null, count: 7),
            ])
    }

    @Test func hostileParametersStayData() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE notes(id serial, body text)", deadline: .seconds(30))
        let hostile = [
            "'; DROP TABLE notes; --", "\"); DELETE FROM notes; --", "<script>alert(1)</script>", "$1", "\\x00", "' OR '1'='1",
            "E'\\\\'", "😀 \u{202E}rtl", String(repeating: "'", count: 1000), "",
        ]
        for text in hostile {
            _ = try connection.query("INSERT INTO notes(body) VALUES ($1)", [text], deadline: .seconds(30))
        }
        let rows = try connection.query("SELECT body FROM notes ORDER BY id", deadline: .seconds(30)).rows
        #expect(rows == hostile.map { [.text($0)] })
        // A value compared, not run: the hostile text matches itself only.
        let matches = try connection.query("SELECT count(*) FROM notes WHERE body = $1", ["' OR '1'='1"], deadline: .seconds(30))
        #expect(matches.rows == [[.integer(1)]])
        // A NUL cannot be sent as text: a typed error, and nothing sent.
        let error = try #require(throws: PostgresError.self) {
            _ = try connection.query("SELECT $1::text", ["a\u{0}b"], deadline: .seconds(30))
        }
        #expect(error == .invalidParameter(index: 0, message: "it holds a NUL character, which PostgreSQL's text cannot"))
        #expect(try connection.query("SELECT count(*) FROM notes", deadline: .seconds(30)).rows == [[.integer(Int64(hostile.count))]])
    }

    // MARK: Prepared statements

    @Test func aPreparedStatementIsReused() throws {
        let connection = try connect()
        let sql = "SELECT $1::int4 + 1 AS next"
        for value in 1...5 {
            #expect(try connection.query(sql, [String(value)], deadline: .seconds(30)).rows == [[.integer(Int64(value + 1))]])
        }
        #expect(connection.preparedStatementCount == 1)
        // The server holds one statement of that text: prepared once, run five times.
        let prepared = try connection.query("SELECT name FROM pg_prepared_statements WHERE statement = $1", [sql], deadline: .seconds(30))
        #expect(prepared.count == 1)
        #expect(connection.preparedStatementCount == 2)
    }

    @Test func theCacheOfStatementsIsBounded() throws {
        let connection = try connect()
        for number in 0..<(PostgresConnection.statementLimit + 6) {
            #expect(try connection.query("SELECT \(number) AS n", deadline: .seconds(30)).rows == [[.integer(Int64(number))]])
        }
        #expect(connection.preparedStatementCount <= PostgresConnection.statementLimit)
        let onServer = try connection.query("SELECT count(*) FROM pg_prepared_statements", deadline: .seconds(30))
        #expect(onServer.rows == [[.integer(Int64(connection.preparedStatementCount))]])
    }

    @Test func aDeadlinePassedAlreadySendsNothing() throws {
        let connection = try connect()
        let past = PostgresDeadline.seconds(0)
        #expect(throws: PostgresError.timedOut(connection: connection.info.description, sql: "SELECT 1")) {
            _ = try connection.query("SELECT 1", deadline: past)
        }
        #expect(connection.preparedStatementCount == 0)
        #expect(connection.connectionCount == 1)
        #expect(try connection.query("SELECT 1", deadline: .seconds(30)).rows == [[.integer(1)]])
    }

    @Test func aStatementIsPreparedAgainWhenItsTableChanges() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE shifting(a int); INSERT INTO shifting VALUES (1)", deadline: .seconds(30))
        #expect(try connection.query("SELECT * FROM shifting", deadline: .seconds(30)).columnNames == ["a"])
        try connection.execute("ALTER TABLE shifting ADD COLUMN b text DEFAULT 'new'", deadline: .seconds(30))
        let rows = try connection.query("SELECT * FROM shifting", deadline: .seconds(30))
        #expect(rows.columnNames == ["a", "b"])
        #expect(rows.rows == [[.integer(1), .text("new")]])
    }

    @Test func aServerErrorIsTypedAndTheConnectionGoesOn() throws {
        let connection = try connect()
        let error = try #require(throws: PostgresError.self) {
            _ = try connection.query("SELECT * FROM no_such_table", deadline: .seconds(30))
        }
        guard case .server(let server) = error else {
            Issue.record("not a server error: \(error)")
            return
        }
        #expect(server.sqlState == "42P01")
        #expect(server.severity == "ERROR")
        #expect(server.sql == "SELECT * FROM no_such_table")
        #expect(error.description.contains("no_such_table"))
        #expect(connection.preparedStatementCount == 0)
        #expect(try connection.query("SELECT 'still here'", deadline: .seconds(30)).rows == [[.text("still here")]])
        // statement_timeout is the server's own limit: its error is a server error (57014).
        let slow = try connect(statementTimeout: 0.2)
        let timeout = try #require(throws: PostgresError.self) { _ = try slow.query("SELECT pg_sleep(30)", deadline: .seconds(60)) }
        #expect(timeout.sqlState == "57014", "\(timeout)")
    }

    // MARK: Deadlines and lost connections

    @Test func theDeadlineCancelsASleepingQuery() throws {
        let connection = try connect()
        let error = try #require(throws: PostgresError.self) {
            _ = try connection.query("SELECT pg_sleep(30)", deadline: .seconds(1))
        }
        #expect(error == .timedOut(connection: connection.info.description, sql: "SELECT pg_sleep(30)"))
        // The server confirmed the cancel within the grace: the same connection goes on.
        #expect(try connection.query("SELECT 2", deadline: .seconds(30)).rows == [[.integer(2)]])
        #expect(connection.connectionCount == 1)
        // And the sleep is over on the server, not left running.
        let other = try connect()
        let sleeping = try other.query(
            "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)' AND state = 'active'", deadline: .seconds(30))
        #expect(sleeping.rows == [[.integer(0)]])
    }

    @Test func aTerminatedBackendIsReplacedOnNextUse() throws {
        let connection = try connect()
        let first = try #require(connection.backendProcessID)
        _ = try connection.query("SELECT 1", deadline: .seconds(30))
        let other = try connect()
        // Waits (up to 10 s) for the backend to exit, so its end of file has reached the socket.
        let terminated = try other.query("SELECT pg_terminate_backend($1::int4, 10000)", [String(first)], deadline: .seconds(30))
        #expect(terminated.rows == [[.integer(1)]])
        #expect(try connection.query("SELECT 1", deadline: .seconds(30)).rows == [[.integer(1)]])
        #expect(connection.connectionCount == 2)
        #expect(connection.backendProcessID != first)
    }

    @Test func aFrozenBackendTimesOutAndIsReplaced() throws {
        let connection = try connect()
        let backend = try #require(connection.backendProcessID)
        // SIGSTOP: the server process neither answers nor honours the cancel (it cannot run).
        try #require(kill(backend, SIGSTOP) == 0, "cannot signal the backend (the test runs as another user?)")
        defer { kill(backend, SIGCONT) }
        let error = try #require(throws: PostgresError.self) {
            _ = try connection.query("SELECT 3", deadline: .seconds(1))
        }
        #expect(error == .timedOut(connection: connection.info.description, sql: "SELECT 3"))
        #expect(!connection.isConnected)
        kill(backend, SIGCONT)
        #expect(try connection.query("SELECT 4", deadline: .seconds(30)).rows == [[.integer(4)]])
        #expect(connection.connectionCount == 2)
    }

    /// A cancel request still on its way when its query ends by itself must not cancel the
    /// connection's next command (another request's read). The postmaster, which takes cancel
    /// requests, is frozen while a sleep outlasts its deadline and ends within the grace; it is
    /// thawed before the next command, which then runs to its end.
    @Test(.enabled(if: PostgresTestServer.cluster != nil, "CELLAR_TEST_POSTGRES_CLUSTER is not set"))
    func aCancelStillOnItsWayCancelsNothingAfterIt() throws {
        let connection = try connect()
        _ = try connection.query("SELECT 1", deadline: .seconds(30))
        let folder = try #require(PostgresTestServer.cluster)
        let pidFile = try String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8)
        let postmaster = try #require(pidFile.split(separator: "\n").first.flatMap { pid_t($0) })
        try #require(kill(postmaster, SIGSTOP) == 0, "cannot signal the postmaster (the test runs as another user?)")
        var thawed = false
        defer { if !thawed { kill(postmaster, SIGCONT) } }
        let error = try #require(throws: PostgresError.self) {
            _ = try connection.query("SELECT pg_sleep(1.3)", deadline: .seconds(1))
        }
        #expect(error == .timedOut(connection: connection.info.description, sql: "SELECT pg_sleep(1.3)"))
        kill(postmaster, SIGCONT)
        thawed = true
        #expect(try connection.query("SELECT 6 FROM pg_sleep(0.5)", deadline: .seconds(30)).rows == [[.integer(6)]])
        // The cancel was not taken within the grace: the connection was replaced.
        #expect(connection.connectionCount == 2)
    }

    @Test(.enabled(if: PostgresTestServer.cluster != nil, "CELLAR_TEST_POSTGRES_CLUSTER is not set"))
    func theServerStoppedIsUnavailableUntilItIsBack() throws {
        let connection = try connect()
        _ = try connection.query("SELECT 1", deadline: .seconds(30))
        try Self.cluster("stop")
        var restarted = false
        defer { if !restarted { try? Self.cluster("start") } }
        let started = ContinuousClock.now
        let error = try #require(throws: PostgresError.self) {
            _ = try connection.query("SELECT 1", deadline: .seconds(20))
        }
        // A refused connection is known at once: well within the deadline, not at it.
        #expect(ContinuousClock.now - started < .seconds(15))
        guard case .unavailable(let description, let message) = error else {
            Issue.record("not unavailable: \(error)")
            return
        }
        #expect(description == connection.info.description)
        #expect(!message.isEmpty)
        #expect(!Self.printed(error).contains(Self.password))
        // Still down: the next call tries again, and says so again.
        #expect(throws: PostgresError.self) { _ = try connection.query("SELECT 1", deadline: .seconds(20)) }
        try Self.cluster("start")
        restarted = true
        #expect(try connection.query("SELECT 5", deadline: .seconds(30)).rows == [[.integer(5)]])
    }

    /// Runs Tests/postgres/cluster.sh `command` on the test cluster.
    ///
    /// With `posix_spawn` and `waitpid`, not Foundation's `Process`: `pg_ctl start` leaves the
    /// server running with the script's descriptors, and `Process` on Linux waits for those to close.
    static func cluster(_ command: String) throws {
        let folder = try #require(PostgresTestServer.cluster)
        let port = try #require(PostgresTestServer.components?.port)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("postgres/cluster.sh").path
        let arguments = ["/bin/bash", script, command, folder] + (command == "start" ? [String(port)] : [])
        var pointers = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        // Its standard output (the URL, password included) goes nowhere.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/bash", &actions, nil, &pointers, environ)
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, macros Swift does not import: exited normally, with status 0.
        try #require(status & 0x7f == 0 && (status >> 8) & 0xff == 0, "cluster.sh \(command): wait status \(status)")
    }

    // MARK: Errors never print the password

    @Test func aWrongPasswordFailsWithoutPrintingEitherPassword() throws {
        let wrong = "wrong-\(Self.password.prefix(6))-guess"
        let info = try PostgresConnectionInfo(try Self.url(password: wrong))
        let error = try #require(throws: PostgresError.self) { _ = try PostgresConnection(info, deadline: .seconds(30)) }
        guard case .connectionFailed(_, let message) = error else {
            Issue.record("not a connection failure: \(error)")
            return
        }
        #expect(message.contains("password authentication failed"), "\(message)")
        // A refusal, not a server away: its SQLSTATE says so, and the server's source line is left out.
        #expect(!error.isTransient)
        #expect(message.contains("28P01") && !message.contains(".c:"), "\(message)")
        let printed = Self.printed(error)
        #expect(!printed.contains(wrong) && !printed.contains(Self.password), "\(printed)")
    }

    @Test func badURLsAndUnknownHostsFailWithoutThePassword() throws {
        let secret = "s3cret-pw"
        for url in [
            "postgres://user:\(secret)%zz@127.0.0.1/db", "postgresql://user:\(secret)@[::1/db", "postgres://user:\(secret)@host:port/db",
            "host=127.0.0.1 password='\(secret)' nonsense", "postgres://user:\(secret)@127.0.0.1/db?password=\(secret)&bogus_option=1",
        ] {
            let error = try #require(throws: PostgresError.self, "\(url)") {
                _ = try PostgresConnection(try PostgresConnectionInfo(url), deadline: .seconds(30))
            }
            #expect(!Self.printed(error).contains(secret), "\(Self.printed(error))")
        }
        // A server not reached is away for now (worth waiting for), not a refusal.
        for url in ["postgres://user:\(secret)@nonexistent.invalid/db", "postgres://user:\(secret)@127.0.0.1:1/db"] {
            let info = try PostgresConnectionInfo(url)
            let error = try #require(throws: PostgresError.self, "\(url)") { _ = try PostgresConnection(info, deadline: .seconds(30)) }
            guard case .unavailable(let description, _) = error else {
                Issue.record("not unavailable: \(error)")
                continue
            }
            #expect(description.contains("password=***"))
            #expect(!Self.printed(error).contains(secret), "\(Self.printed(error))")
        }
    }
}

/// The server `make test-postgres` started, from the environment.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["CELLAR_TEST_POSTGRES"]
    static let cluster = ProcessInfo.processInfo.environment["CELLAR_TEST_POSTGRES_CLUSTER"]
    static var components: URLComponents? { url.flatMap { URLComponents(string: $0) } }
}
