import MicroHTTP

extension QueryRunner {
    /// The cursor a client's statement is read through.
    private static let cursorName = "cellar_query"

    /// Runs a client's statement on PostgreSQL, on a connection of the query page's own: inside a
    /// `READ ONLY` transaction (the server refuses every write, whatever the text), through a
    /// cursor (`DECLARE … CURSOR FOR`: only a query can be one, and only the rows of the page are
    /// fetched, so a result of a billion rows never reaches this process), sent with the extended
    /// protocol (one statement: PostgreSQL refuses a second), within `statement_timeout` and the
    /// deadline. Then `DISCARD ALL`: a `set_config`, an advisory lock or a `LISTEN` does not
    /// outlive the statement. A canned query's `:name` parameters are bound from `parameters`
    /// (``PostgresNamedParameters``); a statement a client wrote has none.
    func runOnPostgres(_ sql: String, parameters: [String: String] = [:], pool: PostgresPool, offset: Int, limit: Int) throws -> Page {
        var sql = sql
        var values: [String?] = []
        if !parameters.isEmpty {
            guard let named = try? PostgresNamedParameters(sql) else {
                throw HTTPError.badRequest("The query numbers a parameter ($1): name it (:name), so that it can be given.")
            }
            sql = named.sql
            values = named.names.map { parameters[$0] }
        }
        let deadline = PostgresDeadline.seconds(timeLimit)
        do {
            return try pool.withConnection(deadline: deadline) { connection in
                defer { Self.reset(connection, statementTimeout: pool.statementTimeout) }
                try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", deadline: deadline)
                do {
                    let page = try Self.fetch(sql, values, on: connection, offset: offset, limit: limit, deadline: deadline)
                    try connection.execute("COMMIT", deadline: deadline)
                    return page
                } catch {
                    connection.rollBack()
                    throw error
                }
            }
        } catch let error as PostgresError {
            throw answer(for: error)
        }
    }

    private static func fetch(
        _ sql: String, _ values: [String?], on connection: PostgresConnection, offset: Int, limit: Int, deadline: PostgresDeadline
    ) throws(PostgresError) -> Page {
        _ = try connection.query("DECLARE \(cursorName) NO SCROLL CURSOR FOR " + sql, values, deadline: deadline)
        var skipped = 0
        if offset > 0 {
            let moved = try connection.query("MOVE FORWARD \(offset) IN \(cursorName)", [], deadline: deadline)
            // The tag is `MOVE n`: the rows stepped over, fewer than asked at the end of the result.
            skipped = moved.commandTag.split(separator: " ").last.flatMap { Int($0) } ?? offset
        }
        let result = try connection.query("FETCH FORWARD \(limit + 1) FROM \(cursorName)", [], deadline: deadline)
        let columns = columnSchemas(names: result.columnNames, types: result.columnTypes)
        var rows = FetchedRows(columnCount: columns.count, expectedRows: min(result.count, limit))
        var stoppedAtByteLimit = false
        for row in 0..<min(result.count, limit) {
            rows.append(row: row, of: result)
            if rows.bytes.count >= pageByteLimit, row + 1 < result.count {
                stoppedAtByteLimit = true
                break
            }
        }
        return Page(
            columns: columns, rows: rows, firstRow: skipped, hasMore: result.count > rows.count, stoppedAtByteLimit: stoppedAtByteLimit)
    }

    /// The result's columns under names no other takes, typed as their values are read.
    private static func columnSchemas(names: [String], types: [PostgresType]) -> [ColumnSchema] {
        unique(names).enumerated().map { column, name in
            let affinity: ColumnAffinity =
                switch types[column] {
                case .integer, .boolean: .integer
                case .real: .real
                case .bytea: .blob
                case .text: .text
                }
            return ColumnSchema(name: name, declaredType: "", affinity: affinity)
        }
    }

    /// What the serving role may do beyond reading, through a statement of its choosing, that a
    /// `READ ONLY` transaction does not stop: be a superuser, read or write the server's files or run
    /// its programs (`pg_read_server_files`, …), or reach other servers through `dblink`. PostgreSQL
    /// has no authorizer to refuse those per statement, so a role that may is not given the SQL page.
    static func reachBeyondReading(in database: Database) throws -> [String] {
        let sql = """
            SELECT reason, reason FROM (
                SELECT 'be a superuser' WHERE (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
                UNION ALL SELECT 'act as ' || role FROM unnest(ARRAY['pg_read_server_files', 'pg_write_server_files',
                    'pg_execute_server_program']) AS roles(role) WHERE pg_has_role(current_user, role, 'MEMBER')
                UNION ALL SELECT 'run ' || p.oid::regprocedure::text FROM pg_proc AS p
                    WHERE p.proname LIKE 'dblink%' AND has_function_privilege(p.oid, 'EXECUTE')
            ) AS reach(reason)
            """
        return try database.read { connection in try connection.labels(sql, []) }.values.sorted()
    }

    /// Makes the connection as a fresh one for the next statement: `DISCARD ALL` (which also resets
    /// the session's settings, so they are set again); a connection that cannot be reset is closed
    /// and made again on its next use.
    private static func reset(_ connection: PostgresConnection, statementTimeout: Double) {
        guard connection.isConnected else { return }
        let deadline = PostgresDeadline.seconds(PostgresConnection.cancelGrace)
        do {
            try connection.execute("DISCARD ALL", deadline: deadline)
            // Its prepared statements went with the DISCARD.
            connection.statements.removeAll()
            try connection.execute(PostgresConnection.sessionSettings(statementTimeout: statementTimeout), deadline: deadline)
        } catch {
            connection.close()
        }
    }

    /// PostgreSQL's error as the client's answer: out of time (the deadline, or `statement_timeout`:
    /// 57014) or the server away is a 503; anything else is about the statement, a 400 with the
    /// server's message.
    func answer(for error: PostgresError) -> HTTPError {
        switch error {
        case .timedOut:
            return overTimeLimit
        case .server(let server) where server.sqlState == "57014":
            return overTimeLimit
        case .server(let server) where server.sqlState == "08P01":
            // The statement names a parameter (`$1`): nothing binds one here.
            return .badRequest("PostgreSQL could not run the statement (\(server.message)): a statement here takes no parameters ($1).")
        case .unavailable, .connectionFailed:
            return Self.unavailable
        case .server(let server) where server.isTransient:
            return Self.unavailable
        case .server(let server) where server.sqlState == "25006":
            return .badRequest("PostgreSQL refused the statement (\(server.message)): this page only reads.")
        case .server(let server):
            return .badRequest(
                "PostgreSQL could not run the statement (\(server.message)). It is read through a cursor: one SELECT, VALUES, TABLE or WITH … SELECT."
            )
        case .invalidParameter, .invalidConnectionString:
            return .badRequest("PostgreSQL could not run the statement: \(error).")
        }
    }
}
