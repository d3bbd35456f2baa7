extension QueryRunner {
    /// What keeps `/-/query` off over PostgreSQL with secret columns: the statements that would
    /// take the serving role's SELECT from each of them, or none when it may read none — then no
    /// statement it runs can read one (`has_column_privilege`), and the page stays on. A view that
    /// reads a secret column runs with its owner's rights: one the role may read counts too,
    /// unless it is one of `lists` (whose columns that show a secret are secret there, and asked
    /// the same way; one that reads it otherwise stopped the start).
    static func secretColumnGrants(of lists: [TableList], pool: PostgresPool, timeLimit: Double) throws -> [String] {
        let deadline = PostgresDeadline.seconds(timeLimit)
        guard lists.contains(where: { !$0.secretColumns.isEmpty }) else { return [] }
        let mounted = Set(lists.map(\.schema.name))
        return try pool.withConnection(deadline: deadline) { connection in
            guard case .text(let role)? = try connection.query("SELECT current_user::text", deadline: deadline).rows.first?.first else { return [] }
            var statements: [String] = []
            for list in lists where !list.secretColumns.isEmpty {
                let table = quotedIdentifier(list.schema.name)
                var readable = false
                for column in list.secretColumnNames {
                    let rows = try connection.query(
                        "SELECT pg_catalog.has_column_privilege($1::regclass, $2, 'SELECT')", [table, column], deadline: deadline
                    ).rows
                    if rows.first?.first == .integer(1) { readable = true }
                    for row in try connection.query(dependentViewsSQL, [table, column], deadline: deadline).rows {
                        guard case .text(let view) = row[0], case .text(let name) = row[1] else { continue }
                        if row[2] == .integer(1), mounted.contains(name) { continue }
                        statements.append("REVOKE SELECT ON \(view) FROM \(quotedIdentifier(role))")
                    }
                }
                guard readable else { continue }
                statements.append("REVOKE SELECT ON \(table) FROM \(quotedIdentifier(role))")
                let others = list.visibleColumns.filter { list.columns[$0].isReadable }.map { quotedIdentifier(list.columns[$0].name) }
                if !others.isEmpty {
                    statements.append("GRANT SELECT (\(others.joined(separator: ", "))) ON \(table) TO \(quotedIdentifier(role))")
                }
            }
            var seen = Set<String>()
            return statements.filter { seen.insert($0).inserted }
        }
    }

    /// The views (and materialized views) whose rule reads the column, that the role may read.
    private static let dependentViewsSQL = """
        SELECT DISTINCT quote_ident(n.nspname) || '.' || quote_ident(v.relname), v.relname::text, pg_catalog.pg_table_is_visible(v.oid)
        FROM pg_catalog.pg_depend AS d
        JOIN pg_catalog.pg_rewrite AS r ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = r.oid
        JOIN pg_catalog.pg_class AS v ON v.oid = r.ev_class
        JOIN pg_catalog.pg_namespace AS n ON n.oid = v.relnamespace
        JOIN pg_catalog.pg_attribute AS a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
        WHERE d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjid = $1::regclass AND a.attname = $2
          AND v.oid <> d.refobjid AND pg_catalog.has_any_column_privilege(v.oid, 'SELECT')
        """
}
