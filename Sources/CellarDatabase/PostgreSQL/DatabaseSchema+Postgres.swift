extension DatabaseSchema {
    /// Reads, from PostgreSQL's catalogue, the tables and views a list can show: those the
    /// connection's `search_path` makes visible by their bare name (`pg_table_is_visible`: the
    /// name, unqualified, means this relation), outside PostgreSQL's own schemas. Tables the role
    /// cannot SELECT from are in ``unreadable``; a table whose grants are on some columns
    /// (`GRANT SELECT (a, b)`) is read, its other columns marked ``ColumnSchema/isReadable`` false.
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
        var columns:
            [Int64: [(
                name: String, type: String, affinity: ColumnAffinity, notNull: Bool, generated: Bool, orderable: Bool, defaultValue: String?,
                readable: Bool
            )]] = [:]
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
            // An identity column: `ALWAYS` is the database's alone, as a generated column is;
            // `BY DEFAULT` has a default, the sequence's next value.
            var defaultValue: String?
            if case .text(let text) = row[8] { defaultValue = text }
            let identity = row[9]
            if identity == .text("d") { defaultValue = "the identity’s next value" }
            let generated = row[5] == .integer(1) || identity == .text("a")
            columns[table, default: []].append(
                (name, type, ColumnAffinity(postgresType: base), row[4] == .integer(1), generated, orderable, defaultValue, row[10] == .integer(1)))
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
        let indexes = try Self.readIndexes(connection, deadline: deadline)
        var tables: [TableSchema] = []
        var unreadable: [String: String] = [:]
        for relation in relations {
            guard case .integer(let oid) = relation[0], case .text(let name) = relation[1], case .text(let kind) = relation[2] else { continue }
            guard relation[3] == .integer(1) else {
                unreadable[name] = "permission denied: this role cannot SELECT from it"
                continue
            }
            let keyPositions = primaryKeys[oid] ?? [:]
            // Grants on some columns only: readable, the others kept secret, unless it is a key's.
            if let withheld = (columns[oid] ?? []).first(where: { !$0.readable && keyPositions[$0.name] != nil }) {
                unreadable[name] = "permission denied: this role cannot SELECT its key column “\(withheld.name)”"
                continue
            }
            let tableColumns = (columns[oid] ?? []).map { column in
                ColumnSchema(
                    name: column.name, declaredType: column.type, affinity: column.affinity, notNull: column.notNull,
                    primaryKeyPosition: keyPositions[column.name] ?? 0, isGenerated: column.generated, isOrderable: column.orderable,
                    defaultValue: column.defaultValue, holdsExactDecimals: column.affinity == .numeric, isReadable: column.readable)
            }
            let isView = kind == "v" || kind == "m"
            tables.append(
                TableSchema(
                    name: name, kind: isView ? .view : .table, columns: tableColumns, withoutRowID: true,
                    foreignKeys: isView ? [] : foreignKeys[oid] ?? [], textSearch: textSearch[oid] ?? [], indexes: indexes[oid] ?? []))
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

    /// What changes when a migration does (relations, columns, constraints, indexes, defaults), as
    /// one hash: compared with the last one when the snapshot moves.
    static let postgresFingerprintSQL = """
        SELECT md5(concat_ws('|',
          (SELECT string_agg(concat_ws(':', c.oid::text, c.relname::text, c.relkind::text), ',' ORDER BY c.oid)
           FROM pg_catalog.pg_class AS c WHERE c.oid IN (\(visible))),
          (SELECT string_agg(concat_ws(':', a.attrelid::text, a.attnum::text, a.attname::text, a.atttypid::text, a.attnotnull::text),
                             ',' ORDER BY a.attrelid, a.attnum)
           FROM pg_catalog.pg_attribute AS a WHERE a.attrelid IN (\(visible)) AND a.attnum > 0 AND NOT a.attisdropped),
          (SELECT string_agg(con.oid::text, ',' ORDER BY con.oid) FROM pg_catalog.pg_constraint AS con WHERE con.conrelid IN (\(visible))),
          (SELECT string_agg(i.indexrelid::text, ',' ORDER BY i.indexrelid) FROM pg_catalog.pg_index AS i WHERE i.indrelid IN (\(visible))),
          (SELECT string_agg(d.oid::text, ',' ORDER BY d.oid) FROM pg_catalog.pg_attrdef AS d WHERE d.adrelid IN (\(visible)))))
        """

    private static let relationsSQL = """
        SELECT c.oid::int8, c.relname::text, c.relkind::text, pg_catalog.has_any_column_privilege(c.oid, 'SELECT')
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
    /// need not check, whether it is a composite (a row type), its default, and its identity
    /// (`a` always, `d` by default, empty for none).
    private static let columnsSQL = """
        SELECT a.attrelid::int8, a.attname::text, pg_catalog.format_type(a.atttypid, a.atttypmod),
               (CASE WHEN t.typtype = 'd' THEN pg_catalog.format_type(t.typbasetype, NULL) ELSE t.typname END)::text,
               a.attnotnull, a.attgenerated <> '',
               EXISTS (SELECT 1 FROM pg_catalog.pg_opclass AS o JOIN pg_catalog.pg_am AS m ON m.oid = o.opcmethod
                       WHERE m.amname = 'btree' AND o.opcdefault
                         AND o.opcintype = (CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END)),
               t.typtype = 'c', pg_catalog.pg_get_expr(d.adbin, d.adrelid), a.attidentity::text,
               pg_catalog.has_column_privilege(a.attrelid, a.attnum, 'SELECT')
        FROM pg_catalog.pg_attribute AS a JOIN pg_catalog.pg_type AS t ON t.oid = a.atttypid
        LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.attgenerated = ''
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

    /// Each table's indexes by name, their key columns (or expressions) in order.
    private static func readIndexes(_ connection: PostgresConnection, deadline: PostgresDeadline) throws -> [Int64: [IndexSchema]] {
        var indexes: [Int64: [IndexSchema]] = [:]
        for row in try connection.query(Self.indexesSQL, deadline: deadline).rows {
            guard case .integer(let table) = row[0], case .text(let name) = row[1], case .text(let column) = row[5] else { continue }
            var list = indexes[table] ?? []
            if let last = list.last, last.name == name {
                list[list.count - 1] = IndexSchema(
                    name: name, columns: last.columns + [column], isUnique: last.isUnique, origin: last.origin, isPartial: last.isPartial)
            } else {
                let origin: IndexSchema.Origin =
                    row[3] == .integer(1) ? .primaryKey : row[4] == .integer(1) ? .unique : .created
                list.append(
                    IndexSchema(name: name, columns: [column], isUnique: row[2] == .integer(1), origin: origin, isPartial: row[6] == .integer(1)))
            }
            indexes[table] = list
        }
        return indexes
    }

    /// `indisunique`, `indisprimary`, whether a `UNIQUE` constraint made it, and each key column
    /// as `pg_get_indexdef` writes it (a column's name, or an expression).
    private static let indexesSQL = """
        SELECT i.indrelid::int8, c.relname::text, i.indisunique, i.indisprimary,
               EXISTS (SELECT 1 FROM pg_catalog.pg_constraint AS con WHERE con.conindid = i.indexrelid AND con.contype = 'u'),
               pg_catalog.pg_get_indexdef(i.indexrelid, k.n, true), i.indpred IS NOT NULL
        FROM pg_catalog.pg_index AS i JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
        CROSS JOIN LATERAL generate_series(1, i.indnkeyatts::int) AS k(n)
        WHERE i.indrelid IN (\(visible))
        ORDER BY i.indrelid, c.relname, k.n
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
