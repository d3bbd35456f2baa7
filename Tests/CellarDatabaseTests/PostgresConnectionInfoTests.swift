import CellarDatabase
import Testing

/// How a PostgreSQL connection string is described: where it goes, and never its password. No
/// server needed (PostgresConnectionTests connects).
struct PostgresConnectionInfoTests {
    static func printed(_ value: Any) -> String {
        var dumped = ""
        dump(value, to: &dumped)
        return "\(value)\n\(String(reflecting: value))\n\(dumped)"
    }

    @Test func aURLIsDescribedWithItsPasswordRedacted() throws {
        let info = try PostgresConnectionInfo("postgres://alice:pa%40ss%20word@db.example:6543/books?sslmode=require&application_name=shelf")
        let description = info.description
        for part in ["host=db.example", "port=6543", "user=alice", "dbname=books", "password=***", "sslmode=require", "application_name=shelf"] {
            #expect(description.contains(part), "\(part) in \(description)")
        }
        let printed = Self.printed(info)
        #expect(!printed.contains("pa@ss word") && !printed.contains("pa%40ss"), "\(printed)")
        // A message that quotes the password, decoded or as written, is redacted too.
        #expect(info.redacting("bad: pa@ss word and pa%40ss%20word") == "bad: *** and ***")
    }

    @Test func aKeyValueStringIsDescribedWithItsPasswordsRedacted() throws {
        let info = try PostgresConnectionInfo(#"host=/run/postgresql dbname='my books' password='it\'s a secret' sslpassword=key-secret"#)
        #expect(info.description.contains("dbname='my books'"), "\(info.description)")
        #expect(info.description.contains("password=***") && info.description.contains("sslpassword=***"), "\(info.description)")
        let printed = Self.printed(info)
        #expect(!printed.contains("it's a secret") && !printed.contains("key-secret"), "\(printed)")
    }

    @Test func theEnvironmentFillsInWhereTheStringIsSilent() throws {
        // The empty string is libpq's environment and defaults alone: the description still says where.
        let info = try PostgresConnectionInfo("")
        #expect(info.description.contains("port="), "\(info.description)")
        #expect(!info.description.contains("password="), "\(info.description)")
    }

    @Test func aStringLibpqRejectsIsATypedErrorWithoutThePassword() throws {
        for text in ["postgres://bob:hunter2-xyz@[::1/db", "postgres://bob:hunter2-xyz%G1@host/db", "password=hunter2-xyz dbname", "not a url"] {
            let error = try #require(throws: PostgresError.self, "\(text)") { _ = try PostgresConnectionInfo(text) }
            guard case .invalidConnectionString(let message) = error else {
                Issue.record("\(text): \(error)")
                continue
            }
            #expect(!message.isEmpty)
            #expect(!Self.printed(error).contains("hunter2-xyz"), "\(Self.printed(error))")
        }
    }

    @Test func onlyPostgresSchemesAreURLs() {
        #expect(PostgresConnectionInfo.isURL("postgres://host/db"))
        #expect(PostgresConnectionInfo.isURL("postgresql://host/db"))
        #expect(!PostgresConnectionInfo.isURL("books.sqlite"))
        #expect(!PostgresConnectionInfo.isURL("host=db"))
        #expect(!PostgresConnectionInfo.isURL("mysql://host/db"))
    }
}
