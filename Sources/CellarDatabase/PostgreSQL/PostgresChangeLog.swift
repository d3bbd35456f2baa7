/// The change log that lets lists over PostgreSQL follow writes made by anyone, on every replica:
/// a table (`cellar_changes`), a trigger function that appends a row to it per statement and sends
/// its id and table on the channel `cellar_changes` (`pg_notify`, delivered at commit), and a
/// statement-level trigger on each table. ``install(on:deadline:)`` puts them in place
/// (`cellar database install-triggers`), ``uninstall(on:deadline:)`` takes them away.
///
/// - **Who.** A role that owns the tables (creating a trigger takes ownership or the `TRIGGER`
///   privilege), once, and again after a table is added: a table made later has no trigger, so its
///   lists are not told of its changes until then. Cellar's own role needs only `SELECT` on the
///   log, which is granted to `PUBLIC`, and `LISTEN` needs no privilege.
/// - **Writers need nothing**: the function is `SECURITY DEFINER` (it runs as the role that
///   installed it, with a `search_path` of `pg_catalog` alone and every name qualified).
/// - **Where.** The log and the function go in the installing session's `current_schema()`, which
///   Cellar's role must find on its own `search_path` (PostgreSQL's default `"$user", public` for
///   both does); triggers go on every table Cellar would list: ordinary and partitioned tables its
///   `search_path` shows, outside PostgreSQL's own schemas. The log is not listed itself.
/// - **Bounded.** One change in 1000 deletes the rows older than ``retentionHours``, but never
///   the newest, so the log's last id lives on; a client whose event id was deleted gets a refresh.
/// - **Idempotent and atomic.** Every statement is one implicit transaction: installing twice
///   changes nothing, and a failure (a table the role does not own) leaves nothing half done.
///
/// Each row also holds its transaction's id (`xid`) and the oldest transaction still running when
/// it was written (`horizon`): ids are handed out when a statement runs, not when it commits, so a
/// transaction that took an id before another's and commits after it is found by its `xid` rather
/// than its id (``changedSinceSQL``).
enum PostgresChangeLog {
    static let table = "cellar_changes"
    static let channel = "cellar_changes"
    static let function = "cellar_note_change"
    static let trigger = "cellar_changes"
    static let retentionHours = 24

    /// Installs the log, the function and the triggers in the session's current schema; returns the
    /// tables that have the trigger now.
    static func install(on connection: PostgresConnection, deadline: PostgresDeadline) throws -> [String] {
        let schema = try currentSchema(connection, deadline: deadline)
        try connection.execute(installSQL(schema: schema), deadline: deadline)
        return try triggeredTables(connection, schema: schema, deadline: deadline)
    }

    /// Removes the triggers (with the function they call), the function and the log from the
    /// session's current schema; returns whether there was a log to remove.
    static func uninstall(on connection: PostgresConnection, deadline: PostgresDeadline) throws -> Bool {
        let schema = try currentSchema(connection, deadline: deadline)
        let existed = try connection.query("SELECT to_regclass($1) IS NOT NULL", [qualified(schema, table)], deadline: deadline).rows
        try connection.execute(
            """
            DROP FUNCTION IF EXISTS \(qualified(schema, function))() CASCADE;
            DROP TABLE IF EXISTS \(qualified(schema, table));
            """, deadline: deadline)
        return existed.first?.first == .integer(1)
    }

    /// The tables whose `cellar_changes` trigger calls the function in `schema`, as `regclass` spells them.
    static func triggeredTables(_ connection: PostgresConnection, schema: String, deadline: PostgresDeadline) throws -> [String] {
        let rows = try connection.query(
            """
            SELECT t.tgrelid::regclass::text FROM pg_catalog.pg_trigger AS t
            WHERE t.tgname = $1 AND t.tgfoid = to_regprocedure($2) ORDER BY 1
            """, [trigger, qualified(schema, function) + "()"], deadline: deadline
        ).rows
        return rows.compactMap { row in
            guard case .text(let name)? = row.first else { return nil }
            return name
        }
    }

    private static func currentSchema(_ connection: PostgresConnection, deadline: PostgresDeadline) throws -> String {
        guard case .text(let schema)? = try connection.query("SELECT current_schema()", deadline: deadline).rows.first?.first else {
            throw PostgresError.server(
                PostgresServerError(
                    sqlState: "3F000", severity: "ERROR", message: "no schema to install into: the search_path names none that exists"))
        }
        return schema
    }

    static func qualified(_ schema: String, _ name: String) -> String {
        quotedIdentifier(schema) + "." + quotedIdentifier(name)
    }

    /// The installation, one implicit transaction. The function body is dollar-quoted with a tag a
    /// quoted identifier cannot end; the tables are found and triggered inside the server (a `DO`
    /// block), by the test ``DatabaseSchema/init(postgres:deadline:)`` lists them by.
    static func installSQL(schema: String) -> String {
        let log = qualified(schema, table)
        let function = qualified(schema, function)
        return """
            CREATE TABLE IF NOT EXISTS \(log) (
                id bigserial PRIMARY KEY,
                table_name text NOT NULL,
                changed_at timestamptz NOT NULL DEFAULT now(),
                xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
                horizon xid8 NOT NULL DEFAULT pg_snapshot_xmin(pg_current_snapshot())
            );
            CREATE INDEX IF NOT EXISTS cellar_changes_table_name ON \(log) (table_name);
            GRANT SELECT ON \(log) TO PUBLIC;
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $cellar_function$
            DECLARE
                change_id int8;
            BEGIN
                INSERT INTO \(log) (table_name) VALUES (TG_TABLE_NAME) RETURNING id INTO change_id;
                PERFORM pg_notify('\(channel)', change_id::text || ' ' || TG_TABLE_NAME);
                IF change_id % 1000 = 0 THEN
                    DELETE FROM \(log) WHERE changed_at < now() - interval '\(retentionHours) hours' AND id < change_id;
                END IF;
                RETURN NULL;
            END
            $cellar_function$;
            REVOKE ALL ON FUNCTION \(function)() FROM PUBLIC;
            DO $cellar_triggers$
            DECLARE
                relation regclass;
            BEGIN
                FOR relation IN
                    SELECT c.oid::regclass FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
                    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
                      AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
                      AND pg_catalog.pg_table_is_visible(c.oid) AND c.oid <> '\(log.replacing("'", with: "''"))'::regclass
                LOOP
                    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', '\(trigger)', relation);
                    EXECUTE format(
                        'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION %s()',
                        '\(trigger)', relation, '\(function.replacing("'", with: "''"))');
                END LOOP;
            END
            $cellar_triggers$;
            """
    }

    /// Whether a list over the table `$2` (NULL: a view, which any table may feed) may have changed
    /// since a render at the log's id `$1`: 1 or 0.
    ///
    /// At id 0 (an empty log), whether any change of the table is logged. Otherwise: when the row
    /// `$1` is gone (pruned), yes; else, whether a change of the table was written by a transaction
    /// that may not have committed when row `$1` was written — its `xid` at or past that row's
    /// `horizon`, and not row `$1`'s own transaction, which had committed before the render saw it.
    /// That covers every id after `$1`, and the ids before it whose transactions committed late.
    static let changedSinceSQL = """
        SELECT (CASE WHEN $1::int8 = 0 THEN EXISTS (SELECT 1 FROM cellar_changes WHERE $2::text IS NULL OR table_name = $2::text)
            ELSE NOT EXISTS (SELECT 1 FROM cellar_changes WHERE id = $1::int8)
              OR EXISTS (
                SELECT 1 FROM cellar_changes AS c, cellar_changes AS seen
                WHERE seen.id = $1::int8 AND ($2::text IS NULL OR c.table_name = $2::text)
                  AND (c.id > seen.id OR (c.xid >= seen.horizon AND c.xid <> seen.xid)))
            END)::int
        """

    /// The newest id, 0 for an empty log.
    static let positionSQL = "SELECT coalesce(max(id), 0) FROM cellar_changes"

    /// 1 when the log is on the `search_path` and this role may read it.
    static let presentSQL = """
        SELECT (to_regclass('cellar_changes') IS NOT NULL AND pg_catalog.has_table_privilege(to_regclass('cellar_changes'), 'SELECT'))::int
        """
}
