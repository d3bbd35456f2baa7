import Testing

@testable import CellarDatabase

/// A connection that cannot be made says whether the server is away for now (worth waiting for:
/// ``PostgresError/unavailable(connection:message:)``, ``PostgresError/isTransient``) or refused
/// (``PostgresError/connectionFailed(connection:message:)``): what decides whether `serve` starts
/// without its database or exits. No server needed.
@Suite struct PostgresConnectFailureTests {
    @Test func aServerRefusalIsTransientOnlyForItsSQLStatesOfTheDatabaseAway() {
        for away in ["57P03", "57P01", "53300", "08006", "08001"] {
            #expect(PostgresConnection.isAway(sqlState: away, reachedServer: true), "\(away)")
        }
        for refused in ["28P01", "28000", "3D000", "42501", "0A000", "XX000"] {
            #expect(!PostgresConnection.isAway(sqlState: refused, reachedServer: true), "\(refused)")
        }
        // libpq's own failures: before the socket's connection was made the server was not reached
        // (refused, no route); after, it is TLS, or no password to send.
        #expect(PostgresConnection.isAway(sqlState: nil, reachedServer: false))
        #expect(!PostgresConnection.isAway(sqlState: nil, reachedServer: true))
    }

    @Test func theSQLStateIsReadFromLibpqsVerboseMessageAndTheSourceLocationDropped() {
        let message = """
            connection to server at "127.0.0.1", port 5432 failed: FATAL:  57P03: the database system is starting up
            DETAIL:  Consistent recovery state has not been yet reached.
            LOCATION:  ProcessStartupPacket, postmaster.c:2409

            """
        #expect(PostgresConnection.sqlState(in: message) == "57P03")
        #expect(
            PostgresConnection.withoutSourceLocation(message)
                == "connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  57P03: the database system is starting up\nDETAIL:  Consistent recovery state has not been yet reached.\n"
        )
        // Several hosts tried: the last server's refusal decides.
        let twoHosts =
            "connection to server at \"a\" failed: FATAL:  57P03: starting up\nconnection to server at \"b\" failed: FATAL:  28P01: password authentication failed"
        #expect(PostgresConnection.sqlState(in: twoHosts) == "28P01")
        let refused =
            "connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?"
        #expect(PostgresConnection.sqlState(in: refused) == nil)
        #expect(PostgresConnection.withoutSourceLocation(refused) == refused)
    }

    @Test func aServerNotListeningIsUnavailable() throws {
        for string in ["postgres://reader:s3cret@127.0.0.1:1/books", "host=/nonexistent/socket/folder port=5432 user=reader dbname=books"] {
            let error = try #require(throws: PostgresError.self) {
                _ = try PostgresConnection(try PostgresConnectionInfo(string), deadline: .seconds(30))
            }
            guard case .unavailable(let description, _) = error else {
                Issue.record("\(string): not unavailable: \(error)")
                continue
            }
            #expect(error.isTransient)
            #expect(!"\(error)".contains("s3cret") && !description.contains("s3cret"))
            let opening = DatabaseOpenError(postgres: error, description: description)
            #expect(opening.isTransient)
        }
    }

    @Test func optionsLibpqRejectsAreAFailureNotWorthRetrying() throws {
        let error = try #require(throws: PostgresError.self) {
            _ = try PostgresConnection(try PostgresConnectionInfo("postgres://reader:s3cret@127.0.0.1:1/books?sslmode=bogus"), deadline: .seconds(30))
        }
        guard case .connectionFailed(_, let message) = error else {
            Issue.record("not a connection failure: \(error)")
            return
        }
        #expect(message.contains("sslmode"), "\(message)")
        #expect(!error.isTransient)
        #expect(!"\(error)".contains("s3cret"))
    }

    @Test func theDatabaseIsNamedBeforeItIsReached() throws {
        #expect(try PostgresConnectionInfo("postgres://reader:pw@db.internal:5432/books").databaseName == "books")
        #expect(try PostgresConnectionInfo("host=db.internal dbname=shop user=reader").databaseName == "shop")
        // libpq's default: the user's name.
        #expect(try PostgresConnectionInfo("postgres://reader@db.internal/").databaseName == "reader")
    }
}
