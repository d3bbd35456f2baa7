extension DatabaseSchema {
    /// Reads, from PostgreSQL's catalogue, the tables and views a list can show: those the
    /// connection's `search_path` makes visible by their bare name (`pg_table_is_visible`: the
    /// name, unqualified, means this relation), outside PostgreSQL's own schemas. Tables the role
    /// cannot SELECT from are in ``unreadable``.
    ///
    /// What SQLite's schema says is said the same way: ordinary and partitioned tables are tables
    /// (partitions are read through their parent), views and materialized views are views, a
    /// foreign table is a table without a key. A column's affinity comes from its type
    /// (``ColumnAffinity/init(postgresType:)``) and its declared type is `format_type`'s spelling
    /// (`character varying(20)`). PostgreSQL has no rowid, so a table's key is its primary key, or
    /// none (paged by offset, as a view). A table's ``TableSchema/textSearch`` are its `tsvector`
    /// columns and its indexes over `to_tsvector(…)`.
    init(postgres connection: PostgresConnection, deadline: PostgresDeadline) throws {
        let relations = try connection.query(Self.relationsSQL, deadline: deadline).rows
        var columns: [Int64: [(name: String, type: String, affinity: ColumnAffinity, notNull: Bool, generated: Bool, orderable: Bool)]] = [:]
        var textSearch: [Int64: [TextSearchDocument]] = [:]
        let names = Dictionary(
            relations.compactMap { row -> (Int64, String)? in
                guard case .integer(let oid) = row[0], case .text(let name) = row[1] else { return nil }
                return (oid, name)
            }, uniquingKeysWith: { first, _ in first })
        for row in try connection.query(Self.columnsSQL, deadline: deadline).rows {
            guard case .integer(let table) = row[0], case .text(let name) = row[1], case .text(let type) = row[2], case .text(let base) = row[3]
            else { continue }
            // A composite's own order is not used: its values do not bind as parameters (a
            // comparison with one reads as an anonymous record, which PostgreSQL cannot take in).
            var orderable = row[6] == .integer(1)
            if !orderable, row[7] != .integer(1), let relation = names[table] {
                orderable = try Self.canOrder(by: name, of: relation, on: connection, deadline: deadline)
            }
            columns[table, default: []].append(
                (name, type, ColumnAffinity(postgresType: base), row[4] == .integer(1), row[5] == .integer(1), orderable))
            if base == "tsvector" { textSearch[table, default: []].append(TextSearchDocument(column: name)) }
        }
        for row in try connection.query(Self.indexExpressionsSQL, deadline: deadline).rows {
            guard case .integer(let table) = row[0], case .text(let index) = row[1], case .text(let expression) = row[2],
                let document = TextSearchDocument(index: index, expression: expression)
            else { continue }
            textSearch[table, default: []].append(document)
        }
        var primaryKeys: [Int64: [String: Int]] = [:]
        for row in try connection.query(Self.primaryKeysSQL, deadline: deadline).rows {
            guard case .integer(let table) = row[0], case .text(let column) = row[1], case .integer(let position) = row[2] else { continue }
            primaryKeys[table, default: [:]][column] = Int(position)
        }
        var foreignKeys: [Int64: [ForeignKey]] = [:]
        var lastConstraint: Int64?
        for row in try connection.query(Self.foreignKeysSQL, deadline: deadline).rows {
            guard case .integer(let table) = row[0], case .integer(let constraint) = row[1], case .text(let from) = row[2],
                case .text(let referencedTable) = row[3], case .text(let to) = row[4]
            else { continue }
            var keys = foreignKeys[table] ?? []
            if constraint == lastConstraint, let last = keys.popLast() {
                keys.append(
                    ForeignKey(columns: last.columns + [from], referencedTable: referencedTable, referencedColumns: last.referencedColumns + [to]))
            } else {
                keys.append(ForeignKey(columns: [from], referencedTable: referencedTable, referencedColumns: [to]))
            }
            lastConstraint = constraint
            foreignKeys[table] = keys
        }
        var tables: [TableSchema] = []
        var unreadable: [String: String] = [:]
        for relation in relations {
            guard case .integer(let oid) = relation[0], case .text(let name) = relation[1], case .text(let kind) = relation[2] else { continue }
            guard relation[3] == .integer(1) else {
                unreadable[name] = "permission denied: this role cannot SELECT from it"
                continue
            }
            let keyPositions = primaryKeys[oid] ?? [:]
            let tableColumns = (columns[oid] ?? []).map { column in
                ColumnSchema(
                    name: column.name, declaredType: column.type, affinity: column.affinity, notNull: column.notNull,
                    primaryKeyPosition: keyPositions[column.name] ?? 0, isGenerated: column.generated, isOrderable: column.orderable)
            }
            let isView = kind == "v" || kind == "m"
            tables.append(
                TableSchema(
                    name: name, kind: isView ? .view : .table, columns: tableColumns, withoutRowID: true,
                    foreignKeys: isView ? [] : foreignKeys[oid] ?? [], textSearch: textSearch[oid] ?? []))
        }
        tables.sort { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
        self.init(tables: tables, unreadable: unreadable)
    }

    /// The relations to list, by the same test in each query; not Cellar's change log
    /// (``PostgresChangeLog``), which is Cellar's own.
    private static let visible = """
        SELECT c.oid FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
          AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
          AND pg_catalog.pg_table_is_visible(c.oid) AND c.oid IS DISTINCT FROM to_regclass('\(PostgresChangeLog.table)')
        """

    private static let relationsSQL = """
        SELECT c.oid::int8, c.relname::text, c.relkind::text, pg_catalog.has_table_privilege(c.oid, 'SELECT')
        FROM pg_catalog.pg_class AS c WHERE c.oid IN (\(visible))
        """

    /// Whether a column can be sorted: a plan for `ORDER BY` it is made, or refused (42883, no
    /// ordering operator). For the types the catalogue does not settle at once (`varchar`, which
    /// borrows text's order, arrays, enums, ranges); the plan is made, never run.
    private static func canOrder(
        by column: String, of relation: String, on connection: PostgresConnection, deadline: PostgresDeadline
    ) throws(PostgresError) -> Bool {
        do {
            try connection.execute(
                "EXPLAIN SELECT FROM \(quotedIdentifier(relation)) ORDER BY \(quotedIdentifier(column)) LIMIT 0", deadline: deadline)
            return true
        } catch .server(let error) where !error.isTransient {
            return false
        }
    }

    /// A domain's column is read as its base type. The last columns say whether the type (a
    /// domain's base) has a default B-tree operator class of its own, an order ``canOrder(by:of:on:deadline:)``
    /// need not check, and whether it is a composite (a row type).
    private static let columnsSQL = """
        SELECT a.attrelid::int8, a.attname::text, pg_catalog.format_type(a.atttypid, a.atttypmod),
               (CASE WHEN t.typtype = 'd' THEN pg_catalog.format_type(t.typbasetype, NULL) ELSE t.typname END)::text,
               a.attnotnull, a.attgenerated <> '',
               EXISTS (SELECT 1 FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid = o.opcmethod
                       WHERE m.amname = 'btree' AND o.opcdefault
                         AND o.opcintype = (CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END)),
               t.typtype = 'c'
        FROM pg_catalog.pg_attribute AS a JOIN pg_catalog.pg_type AS t ON t.oid = a.atttypid
        WHERE a.attrelid IN (\(visible)) AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attrelid, a.attnum
        """

    /// Each expression an index keys on (`indkey` 0), as `pg_get_indexdef` writes it, by index
    /// name: the candidates for a search's document. Partial indexes are left out (a search
    /// without their predicate cannot use them), as are indexes not yet valid.
    private static let indexExpressionsSQL = """
        SELECT i.indrelid::int8, c.relname::text, pg_catalog.pg_get_indexdef(i.indexrelid, k.n, true)
        FROM pg_catalog.pg_index AS i JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
        CROSS JOIN LATERAL generate_series(1, i.indnkeyatts::int) AS k(n)
        WHERE i.indrelid IN (\(visible)) AND i.indkey[k.n - 1] = 0 AND i.indpred IS NULL AND i.indisvalid
        ORDER BY i.indrelid, c.relname
        """

    private static let primaryKeysSQL = """
        SELECT con.conrelid::int8, a.attname::text, k.position
        FROM pg_catalog.pg_constraint AS con
        CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, position)
        JOIN pg_catalog.pg_attribute AS a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
        WHERE con.contype = 'p' AND con.conrelid IN (\(visible))
        """

    /// In the order they were declared (their constraints' OIDs), each one's columns in order.
    private static let foreignKeysSQL = """
        SELECT con.conrelid::int8, con.oid::int8, a.attname::text, r.relname::text, ra.attname::text
        FROM pg_catalog.pg_constraint AS con
        CROSS JOIN LATERAL unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(attnum, referenced, position)
        JOIN pg_catalog.pg_attribute AS a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
        JOIN pg_catalog.pg_class AS r ON r.oid = con.confrelid
        JOIN pg_catalog.pg_attribute AS ra ON ra.attrelid = con.confrelid AND ra.attnum = k.referenced
        WHERE con.contype = 'f' AND con.conrelid IN (\(visible))
        ORDER BY con.conrelid, con.oid, k.position
        """
}

extension ColumnAffinity {
    /// The affinity the list code reads a PostgreSQL column by, from its type's name (`typname`):
    /// whole numbers (and `oid`) integer, floating point real, `numeric` numeric, `bytea` blob,
    /// `bool` integer (its values are read as 1 and 0, as SQLite keeps them), everything else text —
    /// a date, a UUID or JSON is filtered and shown by its text.
    init(postgresType name: String) {
        switch name {
        case "int2", "int4", "int8", "oid", "smallint", "integer", "bigint": self = .integer
        case "float4", "float8", "real", "double precision": self = .real
        case "numeric": self = .numeric
        case "bytea": self = .blob
        case "bool", "boolean": self = .integer
        default: self = .text
        }
    }
}
