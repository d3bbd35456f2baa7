extension SecretViewColumns {
    /// The columns of a PostgreSQL `view` that show a secret column as it is, by name, from the
    /// catalogue: a view runs with its owner's rights, so a role that may not read a secret could
    /// read it through one.
    ///
    /// What the view reads is its rule's dependencies (`pg_depend` on `pg_rewrite`: each column of
    /// each relation), whoever owns them. Which of its columns shows one as it is comes from its
    /// stored query (`pg_rewrite.ev_action`): an output column whose origin (`resorigtbl`,
    /// `resorigcol`) is the secret column. The rule is conservative: a secret column counts as
    /// shown only when the query's every reference to its column number (`:varattno`) is one of
    /// those outputs; any other reference — an expression, a condition, a join, or another
    /// relation's column of the same number — or a whole row of its table (`row_to_json(t)`)
    /// stops the start, naming the view and the column. A view over a view: the inner view's
    /// shown columns are secret in turn.
    ///
    /// - Parameter secret: the secret columns, each as ``UnreadableTables/secretKey(table:column:)`` names it.
    /// - Throws: ``ConfigurationError`` when the view reads a secret column other than as one of its columns.
    static func of(
        _ view: TableSchema, secret: Set<String>, on connection: PostgresConnection, in file: DatabaseConfiguration
    ) throws -> [String] {
        guard view.kind == .view, !secret.isEmpty else { return [] }
        return try shown(by: quotedIdentifier(view.name), named: view.name, secret: secret, on: connection, in: file, depth: 0)
    }

    /// The most views over views followed; past it the view is refused.
    static let maximumDepth = 8

    private static func shown(
        by relation: String, named name: String, secret: Set<String>, on connection: PostgresConnection, in file: DatabaseConfiguration,
        depth: Int
    ) throws -> [String] {
        let deadline = PostgresDeadline.seconds(30)
        let dependencies = try connection.query(dependenciesSQL, [relation], deadline: deadline).rows
        guard case .text(let query)? = dependencies.first?[0] else { return [] }
        // Each relation it reads, and the secret columns of each: configured, or shown by a view it reads.
        var secretOf: [Int64: Set<String>] = [:]
        var names: [Int64: String] = [:]
        for row in dependencies {
            guard case .integer(let oid) = row[1], case .text(let table) = row[2], case .text(let kind) = row[3] else { continue }
            guard names[oid] == nil else { continue }
            names[oid] = table
            var columns = Set(
                secret.filter { $0.hasPrefix(table.lowercased() + "\u{0}") }.map { String($0.split(separator: "\u{0}").last ?? "") })
            if kind == "v" || kind == "m", case .text(let qualified) = row[4] {
                guard depth < maximumDepth else {
                    throw refusal(
                        name, "reads views over views more than \(maximumDepth) deep; Cellar cannot tell whether it shows a secret column", file)
                }
                columns.formUnion(
                    try shown(by: qualified, named: table, secret: secret, on: connection, in: file, depth: depth + 1).map { $0.lowercased() })
            }
            if !columns.isEmpty { secretOf[oid] = columns }
        }
        guard let (oid, columns) = secretOf.min(by: { $0.key < $1.key }) else { return [] }
        if query.contains(":varattno 0 ") {
            throw refusal(
                name,
                "reads whole rows (or may) of \(names[oid] ?? "a table") with the secret column \(columns.sorted().joined(separator: ", ")), which could show its value: select its other columns one by one",
                file)
        }
        // The outputs of the query: view column number, origin relation and column number.
        let outputs = query.matches(of: outputPattern).compactMap { match -> (column: Int, table: Int64, number: Int)? in
            guard match.output.5 == "false", let column = Int(match.output.1), let table = Int64(match.output.3), let number = Int(match.output.4)
            else { return nil }
            return (column, table, number)
        }
        var references: [Int: Int] = [:]
        for match in query.matches(of: variablePattern) {
            if let number = Int(match.output.1) { references[number, default: 0] += 1 }
        }
        var viewColumns: [Int: String] = [:]
        for row in try connection.query(viewColumnsSQL, [relation], deadline: deadline).rows {
            if case .integer(let number) = row[0], case .text(let column) = row[1] { viewColumns[Int(number)] = column }
        }
        var shown: [String] = []
        for row in dependencies {
            guard case .integer(let oid) = row[1], case .integer(let number) = row[5], case .text(let column) = row[6],
                secretOf[oid]?.contains(column.lowercased()) == true
            else { continue }
            let showing = outputs.filter { $0.table == oid && $0.number == Int(number) }
            guard !showing.isEmpty, references[Int(number), default: 0] == showing.count else {
                throw refusal(
                    name,
                    "reads the secret column \(names[oid] ?? "").\(column) in an expression, a condition or a join (or Cellar cannot tell it does not), which could show its value: select it as a column of its own (which is then secret too) or not at all",
                    file)
            }
            shown += showing.compactMap { viewColumns[$0.column] }
        }
        return shown
    }

    private static func refusal(_ view: String, _ why: String, _ file: DatabaseConfiguration) -> ConfigurationError {
        file.error("tables.\(view)", "the view \(view) \(why)")
    }

    /// The view's stored query, and each column of each relation its rule depends on (number 0:
    /// the relation as a whole).
    private static let dependenciesSQL = """
        SELECT r.ev_action::text, d.refobjid::int8, ref.relname::text, ref.relkind::text,
               quote_ident(n.nspname) || '.' || quote_ident(ref.relname), d.refobjsubid::int8, a.attname::text
        FROM pg_catalog.pg_rewrite AS r
        JOIN pg_catalog.pg_depend AS d ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = r.oid
        JOIN pg_catalog.pg_class AS ref ON ref.oid = d.refobjid
        JOIN pg_catalog.pg_namespace AS n ON n.oid = ref.relnamespace
        LEFT JOIN pg_catalog.pg_attribute AS a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid AND d.refobjsubid > 0
        WHERE r.ev_class = $1::regclass AND r.rulename = '_RETURN'
          AND d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjid <> r.ev_class
        ORDER BY d.refobjid, d.refobjsubid
        """

    /// The view's columns by number.
    private static let viewColumnsSQL = """
        SELECT attnum::int8, attname::text FROM pg_catalog.pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped
        """

    /// A target entry of a stored query: its number, name, origin relation and column, and whether it is hidden (`resjunk`).
    nonisolated(unsafe) private static let outputPattern =
        #/:resno (\d+) :resname ((?:\\.|[^ \\])+) :ressortgroupref \d+ :resorigtbl (\d+) :resorigcol (\d+) :resjunk (true|false)/#

    /// A column reference (`Var`) of a stored query, by its column number.
    nonisolated(unsafe) private static let variablePattern = #/\{VAR :varno \d+ :varattno (-?\d+) /#
}
