import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// The write API's bodies as the server reads them: each refusal's status and message, and each
/// kind of value as it is bound (read from the file by `typeof`), over sockets.
@Suite struct DatabaseWriteBodyTests {
    /// A table whose `v` has no declared type, so SQLite keeps each value as it was bound.
    static let sql = DatabaseWriteTestServer.sql + "\nCREATE TABLE kinds(id INTEGER PRIMARY KEY, v);"

    static let notJSON = "The body is not valid JSON."
    static let valueKind = "A value is an array or an object: a column takes text, a number, true, false, null or {\"$base64\": \"…\"}."

    @Test func refusalsSayWhatIsWrong() throws {
        let served = try DatabaseWriteTestServer(sql: Self.sql)
        let before = try served.rows("SELECT count(*) FROM books")
        let cases: [(String, String, String)] = [
            ("/books/-/insert", "", "The body is empty: send JSON, such as {\"row\": {…}}."),
            ("/books/-/insert", "not json", Self.notJSON),
            ("/books/-/insert", " ", Self.notJSON),
            ("/books/-/insert", #"{"row": {"title": "x"}} x"#, Self.notJSON),
            ("/books/-/insert", #"{"row": {"title": "x"}"#, Self.notJSON),
            ("/books/-/insert", #"{"row": {"title": "x}}"#, Self.notJSON),
            ("/books/-/insert", #"{"row": {"title": 'x'}}"#, Self.notJSON),
            ("/books/-/insert", #"{"row": {"title": .5}}"#, Self.notJSON),
            ("/books/-/insert", #"{"row": {"title": +1}}"#, Self.notJSON),
            ("/books/-/insert", #"{row: {"title": "x"}}"#, Self.notJSON),
            ("/books/-/insert", #"{"rows": []}"#, "“rows” is empty."),
            ("/books/-/insert", #"{"row": {"title": "x"}, "rows": [{"title": "y"}]}"#, "The body has both “row” and “rows”: send one."),
            ("/books/-/insert", "{}", "The body has neither “row” nor “rows”."),
            ("/books/-/insert", #"{"row": null}"#, "The body has neither “row” nor “rows”."),
            ("/books/-/insert", #"{"row": 5}"#, "The body’s “row” is not of the kind expected."),
            ("/books/-/insert", #"{"row": "x"}"#, "The body’s “row” is not of the kind expected."),
            ("/books/-/insert", #"{"rows": {"title": "x"}}"#, "The body’s “rows” is not of the kind expected."),
            ("/books/-/insert", #"{"row": {"title": "x"}, "return": "yes"}"#, "The body’s “return” is not of the kind expected."),
            ("/books/-/insert", #"{"row": {"title": "x"}, "ignore": 1}"#, "The body’s “ignore” is not of the kind expected."),
            ("/books/-/insert", #"{"row": {"title": "x"}, "replace": []}"#, "The body’s “replace” is not of the kind expected."),
            ("/books/-/insert", #"{"row": {"title": {"nested": true}}}"#, Self.valueKind),
            ("/books/-/insert", #"{"row": {"title": [1, 2]}}"#, Self.valueKind),
            ("/books/-/insert", #"{"row": {"title": {"$base64": "!!"}}}"#, "A “$base64” value is not base64."),
            ("/books/-/insert", #"{"row": {"title": "x"}, "ignore": true, "replace": true}"#, "“ignore” and “replace” cannot both be true."),
            ("/books/1/-/update", #"{"title": "no update member"}"#, "The body has no “update”."),
            ("/books/1/-/update", #"{"update": ["title"]}"#, "The body’s “update” is not of the kind expected."),
            ("/books/1/-/update", #"{"update": {"title": "x"}, "return": 0}"#, "The body’s “return” is not of the kind expected."),
        ]
        for (target, body, message) in cases {
            let response = try served.post(target, body)
            #expect(response.status == 400, "\(target) \(body): \(response.status) \(response.text)")
            #expect(try response.json == .object(["ok": .bool(false), "errors": .array([.string(message)])]), "\(target) \(body)")
        }
        #expect(try served.rows("SELECT count(*) FROM books") == before)
        #expect(try served.rows("SELECT title FROM books WHERE id = 1") == [[.text("Dune")]])
    }

    @Test func eachValueIsBoundAsItsKind() throws {
        let served = try DatabaseWriteTestServer(sql: Self.sql)
        let cases: [(String, DatabaseValue)] = [
            ("null", .null),
            ("true", .integer(1)),
            ("false", .integer(0)),
            ("0", .integer(0)),
            ("-0", .integer(0)),
            ("42", .integer(42)),
            ("-17", .integer(-17)),
            ("9223372036854775807", .integer(.max)),
            ("-9223372036854775808", .integer(.min)),
            ("1.0", .integer(1)),
            ("-1.0", .integer(-1)),
            ("-0.0", .integer(0)),
            ("1e2", .integer(100)),
            ("1E+2", .integer(100)),
            ("4.0e15", .integer(4_000_000_000_000_000)),
            ("1e18", .integer(1_000_000_000_000_000_000)),
            ("12345678901234567.0", .integer(12_345_678_901_234_567)),
            ("9223372036854775808", .real(9.223372036854775808e18)),
            ("-9223372036854775809", .real(-9.223372036854775809e18)),
            ("12345678901234567890123", .real(1.2345678901234567890123e22)),
            ("1e19", .real(1e19)),
            ("0.1", .real(0.1)),
            ("1.25e1", .real(12.5)),
            ("-2.5E-3", .real(-0.0025)),
            ("123456789.123456789", .real(123456789.123456789)),
            (#""text""#, .text("text")),
            (#""""#, .text("")),
            (#""\"\\\/\b\f\n\r\t""#, .text("\"\\/\u{8}\u{C}\n\r\t")),
            (#""\u00e9\u00E9 é \u20ac""#, .text("éé é €")),
            (#""\ud83c\udf77 🍷""#, .text("🍷 🍷")),
            (#""a\u0000b""#, .text("a\u{0}b")),
            (#""<script>'; DROP TABLE kinds; --""#, .text("<script>'; DROP TABLE kinds; --")),
            (#"{"$base64": "AAEC/w=="}"#, .blob([0, 1, 2, 255])),
            (#"{"$base64": ""}"#, .blob([])),
        ]
        for (number, (json, expected)) in cases.enumerated() {
            let response = try served.post("/kinds/-/insert", #"{"row": {"id": \#(number + 1), "v": \#(json)}}"#)
            #expect(response.status == 201, "\(json): \(response.text)")
            let stored = try served.rows("SELECT v FROM kinds WHERE id = \(number + 1)")
            #expect(stored == [[expected]], "\(json)")
        }
    }

    @Test func aBatchAndItsOptionsAreReadWhateverTheirOrderAndSpacing() throws {
        let served = try DatabaseWriteTestServer(sql: Self.sql)
        let body =
            "\u{FEFF} \n\t{ \"return\" : true ,\r\n \"rows\" : [ {\"title\":\"A\" , \"year\" : 1999} ,{ \"title\" : \"B\", \"notes\": null } ] } \n"
        let response = try served.post("/books/-/insert", body)
        #expect(response.status == 201, "\(response.text)")
        guard case .array(let rows) = try response.json["rows"] else {
            Issue.record("no rows in \(response.text)")
            return
        }
        #expect(rows.map { $0["title"] } == [.string("A"), .string("B")])
        #expect(
            try served.rows("SELECT title, year, notes FROM books WHERE id > 1 ORDER BY id") == [
                [.text("A"), .integer(1999), .text("none")], [.text("B"), .null, .null],
            ])
        let update = try served.post("/books/1/-/update", #"{"return": false, "update": {"year": 1966}}"#)
        #expect(try update.json == .object(["ok": .bool(true)]))
        #expect(try served.rows("SELECT year FROM books WHERE id = 1") == [[.integer(1966)]])
    }

    @Test func whatTheReaderRefusesBeyondTheGrammar() throws {
        let served = try DatabaseWriteTestServer(sql: Self.sql)
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        let cases: [(String, [UInt8], String)] = [
            (
                "/books/-/insert", Array(#"{"row": {"title": "x"}, "alter": true}"#.utf8),
                "The body has “alter”, which this API does not take: it takes “row” or “rows”, “return”, “ignore” and “replace”."
            ),
            (
                "/books/1/-/update", Array(#"{"update": {"title": "x"}, "alter": true}"#.utf8),
                "The body has “alter”, which this API does not take: it takes “update” and “return”."
            ),
            (
                "/books/-/insert", Array(#"{"row": {"title": "a", "title": "b"}}"#.utf8),
                "The body names “title” twice in one object: send each member once."
            ),
            (
                "/books/-/insert", Array(#"{"row": {"title": "a"}, "row": {"title": "b"}}"#.utf8),
                "The body names “row” twice in one object: send each member once."
            ),
            (
                "/books/-/insert", Array(#"{"row": {"title": ""#.utf8) + [0xFF] + Array(#""}}"#.utf8),
                "The body is not valid JSON: its text is not UTF-8 at byte 18."
            ),
            (
                "/books/-/insert", Array(#"{"row": {""#.utf8) + [0xC0, 0x80] + Array(#"": 1}}"#.utf8),
                "The body is not valid JSON: its text is not UTF-8 at byte 9."
            ),
            ("/books/-/insert", Array(#"{"row": {"title": "\ud83c"}}"#.utf8), "The body is not valid JSON: its text is not UTF-8 at byte 19."),
            ("/books/-/insert", Array(#"{"row": {"title": \#(deep)}}"#.utf8), "The body nests arrays and objects more than 64 deep."),
            (
                "/books/-/insert", Array(#"{"row": {"title": "x", "year": 1e400}}"#.utf8),
                "“year” has a number too large for any column (past a double’s range), at byte 31."
            ),
            ("/books/-/insert", Array(#"{"row": {"title": "x"},}"#.utf8), Self.notJSON),
            ("/books/-/insert", Array("{\"row\": {\"title\": \"tab\tin\"}}".utf8), Self.notJSON),
            ("/books/-/insert", Array(#"{"row": {"title": [1]}} x"#.utf8), Self.notJSON),
            ("/books/-/insert", Array(#"{"row": {"title": 01}}"#.utf8), Self.notJSON),
            ("/books/-/insert", Array("[1]".utf8), "The body is not a JSON object: send one, such as {\"row\": {…}}."),
            ("/books/-/insert", Array("null".utf8), "The body is not a JSON object: send one, such as {\"row\": {…}}."),
            ("/books/-/insert", Array(#"{"rows": [5]}"#.utf8), "The body’s “rows.0” is not of the kind expected."),
            ("/books/-/insert", Array(#"{"row": {"title": {"$base64": "AA==", "x": 1}}}"#.utf8), Self.valueKind),
            ("/books/1/-/update", Array(#"{"update": null}"#.utf8), "The body has no “update”."),
        ]
        for (target, body, message) in cases {
            let response = try TestHTTPClient.send(
                "POST", target, port: served.server.port,
                headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(served.token)")], body: body, timeout: .seconds(60))
            let text = String(decoding: body, as: UTF8.self)
            #expect(response.status == 400, "\(target) \(text): \(response.status) \(response.text)")
            #expect(try response.json == .object(["ok": .bool(false), "errors": .array([.string(message)])]), "\(target) \(text)")
        }
        #expect(try served.rows("SELECT count(*), max(title) FROM books") == [[.integer(1), .text("Dune")]])
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }
}
