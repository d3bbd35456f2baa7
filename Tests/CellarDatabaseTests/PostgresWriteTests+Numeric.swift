import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// PostgreSQL's `numeric` keeps every digit: a value written through the JSON write API or a
/// form is bound as the decimal's text, never through a `Double`, and read back as it is.
extension PostgresWriteTests {
    static let longDecimal = "12345678901234567890.123456789"

    @Test func numericValuesKeepEveryDigitThroughTheWriteAPI() throws {
        let served = try PostgresWriteTestServer.fresh()
        // A JSON number, and the same as a JSON string.
        let inserted = try served.post(
            "/ledger/-/insert",
            #"{"rows": [{"id": 1, "amount": \#(Self.longDecimal), "rate": 0.1000000000000000000000000001}, {"id": 2, "amount": "-\#(Self.longDecimal)", "rate": "1e-30"}], "return": true}"#
        )
        #expect(inserted.status == 201, "\(inserted.text)")
        #expect(inserted.text.contains(Self.longDecimal), "\(inserted.text)")
        #expect(
            try served.rows("SELECT amount::text, rate::text FROM ledger ORDER BY id") == [
                [.text(Self.longDecimal), .text("0.1000000000000000000000000001")],
                [.text("-" + Self.longDecimal), .text("0.000000000000000000000000000001")],
            ])
        let updated = try served.post(
            "/ledger/1/-/update", #"{"update": {"amount": 98765432109876543210.987654321, "rate": 99999999999999999999999}}"#)
        #expect(updated.status == 200, "\(updated.text)")
        #expect(
            try served.rows("SELECT amount::text, rate::text FROM ledger WHERE id = 1") == [
                [.text("98765432109876543210.987654321"), .text("99999999999999999999999")]
            ])
        // The row's JSON reads it back as it is.
        #expect(try served.get("/ledger/1.json").text.contains("98765432109876543210.987654321"))
        // Not a number, or too large for numeric(40, 9): refused on its column, nothing written.
        for bad in [#""12,5""#, #""1e5x""#, #""NaN""#, #""0x10""#, #"" 1""#] {
            let refused = try served.post("/ledger/1/-/update", #"{"update": {"amount": \#(bad)}}"#)
            #expect(refused.status == 400, "\(bad): \(refused.status) \(refused.text)")
            #expect(refused.errors.contains("amount"), "\(bad): \(refused.text)")
        }
        let huge = try served.post("/ledger/1/-/update", #"{"update": {"amount": 1\#(String(repeating: "0", count: 40))}}"#)
        #expect(huge.status == 422, "\(huge.text)")
        #expect(
            try served.rows("SELECT amount::text FROM ledger ORDER BY id") == [
                [.text("98765432109876543210.987654321")], [.text("-" + Self.longDecimal)],
            ])
    }

    @Test func numericValuesKeepEveryDigitThroughTheForms() throws {
        let served = try PostgresWriteTestServer.fresh()
        let alice = try served.signIn("alice")
        let saved = try served.postForm("/ledger/-/new", "id=3&amount=\(Self.longDecimal)&rate=", cookie: alice)
        #expect(saved.status == 303, "\(saved.text.prefix(500))")
        #expect(try served.rows("SELECT amount::text FROM ledger WHERE id = 3") == [[.text(Self.longDecimal)]])
        // The edit form shows it as stored, and saves it back unchanged.
        let bare = try served.get("/ledger/3/-/edit", headers: [("Cookie", alice), ("Accept", "text/html")])
        let target = try #require(bare.headers["Location"])
        let edit = try served.get(target, headers: [("Cookie", alice), ("Accept", "text/html")])
        #expect(edit.text.contains("value=\"\(Self.longDecimal)\""), "\(edit.text.prefix(2000))")
        let edited = try served.postForm(target, "id=3&amount=-0.000000001&rate=314159265358979323846264338327950288", cookie: alice)
        #expect(edited.status == 303, "\(edited.text.prefix(500))")
        #expect(
            try served.rows("SELECT amount::text, rate::text FROM ledger WHERE id = 3") == [
                [.text("-0.000000001"), .text("314159265358979323846264338327950288")]
            ])
        // Not a number: a 422 naming the field; too large: a 422; nothing written either way.
        for bad in ["12%2C5", "abc", "Infinity"] {
            let refused = try served.postForm("/ledger/-/new", "id=4&amount=\(bad)&rate=", cookie: alice)
            #expect(refused.status == 422, "\(bad): \(refused.status)")
            #expect(refused.text.contains("amount"), "\(bad)")
        }
        let huge = try served.postForm("/ledger/-/new", "id=4&amount=1\(String(repeating: "0", count: 40))&rate=", cookie: alice)
        #expect(huge.status == 422, "\(huge.status)")
        #expect(try served.rows("SELECT count(*) FROM ledger") == [[.integer(1)]])
    }
}
