import Testing

@testable import CellarDatabase

/// A canned query's `:name` parameters become PostgreSQL's `$n`; what only looks like one (in a
/// string, a quoted name, a comment, a dollar-quoted constant, a cast) stays as written.
@Suite struct PostgresNamedParametersTests {
    @Test(arguments: [
        ("SELECT * FROM t WHERE a = :a AND b > :b OR a = :a", "SELECT * FROM t WHERE a = $1 AND b > $2 OR a = $1", ["a", "b"]),
        ("SELECT ':a', \":b\", 'it''s :c' FROM t WHERE x = :x", "SELECT ':a', \":b\", 'it''s :c' FROM t WHERE x = $1", ["x"]),
        ("SELECT E'\\' :a' || :b", "SELECT E'\\' :a' || $1", ["b"]),
        ("SELECT x::int, y :: text FROM t -- :gone\nWHERE z = :z", "SELECT x::int, y :: text FROM t -- :gone\nWHERE z = $1", ["z"]),
        ("SELECT /* :a /* :b */ :c */ :d", "SELECT /* :a /* :b */ :c */ $1", ["d"]),
        ("SELECT $$ :a $$, $tag$ :b $ $tag$, :c", "SELECT $$ :a $$, $tag$ :b $ $tag$, $1", ["c"]),
        ("SELECT a$1, :ünï_1 FROM t", "SELECT a$1, $1 FROM t", ["ünï_1"]),
        ("SELECT arr[1:2] FROM t", "SELECT arr[1:2] FROM t", []),
    ])
    func namesBecomeNumbersAndTheRestStaysAsWritten(statement: String, sql: String, names: [String]) throws {
        let named = try PostgresNamedParameters(statement)
        #expect(named.sql == sql)
        #expect(named.names == names)
    }

    @Test func aNumberedParameterIsRefused() {
        #expect(throws: PostgresNamedParameters.Problem.positional) { try PostgresNamedParameters("SELECT $1") }
        #expect(throws: PostgresNamedParameters.Problem.positional) { try PostgresNamedParameters("SELECT :a, ($2)") }
    }
}
