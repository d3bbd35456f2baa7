import Testing

@testable import CellarDatabase

/// What a PostgreSQL error says where it is logged or shown.
@Suite struct PostgresErrorTests {
    @Test func aServerErrorsDescriptionLeavesItsDetailOut() {
        let error = PostgresServerError(
            sqlState: "23505", severity: "ERROR", message: "duplicate key value violates unique constraint \"users_token_key\"",
            detail: "Key (token)=(the-secret-token) already exists.", hint: "Choose another.", sql: "INSERT INTO users VALUES ($1)")
        #expect(!error.description.contains("the-secret-token"))
        #expect(!PostgresError.server(error).description.contains("the-secret-token"))
        #expect(error.description.contains("23505") && error.description.contains("users_token_key"))
        #expect(error.description.contains("Choose another.") && error.description.contains("INSERT INTO users"))
        #expect(error.detail == "Key (token)=(the-secret-token) already exists.")
    }
}
