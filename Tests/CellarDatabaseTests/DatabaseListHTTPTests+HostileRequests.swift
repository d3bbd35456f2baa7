import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// Requests no page links to: SQL in every parameter's value and name, in sort and in cursors,
/// garbage and forged cursors, values of 100 KB, malformed percent-encoding, absurd limits and
/// offsets. Each is a 400, or its value is taken as a value; none is a 500, and the database file
/// is byte for byte what it was.
extension DatabaseListHTTPTests {
    @Suite struct HostileRequests {
        /// The cellar fixture, served with room for request heads of 256 KB.
        static func cellar() throws -> DatabaseTestServer {
            try DatabaseTestServer(TemporaryDatabase(CellarFixture.sql), connectionMemoryLimit: 1 << 20)
        }

        static let injections = [
            "' OR 1=1 --", "1; DROP TABLE wines; --", "\") OR 1=1 --", "1 UNION SELECT sql FROM sqlite_schema", "x\" , \"y",
            "*/ DELETE FROM wines /*", "'; ATTACH DATABASE '/tmp/cellar-attack.db' AS x; --", "id) OR (1=1", "\u{0}", "%", "\\", "''",
            "\"\"", "--", ";", "NULL", "-1", "1e999", "<script>alert(1)</script>", "\u{202E}x", "a\r\nX-Injected: 1", "oak\" OR \"1",
            "rowid", "-rowid", "wines.id", "\"id\"", "id ASC", "id; --", "(SELECT 1)", "1)--",
        ]

        /// Each injection in each parameter of `list`, as value and as name.
        static func targets(_ list: String, searchable: Bool) -> [String] {
            var targets: [String] = []
            for injection in injections {
                let value = percentEncoded(injection)
                var items = [
                    "name=\(value)", "id=\(value)", "id__gt=\(value)", "name__contains=\(value)", "id__isnull=\(value)", "sort=\(value)",
                    "sort=-\(value)", "sort=id&sort=\(value)", "cursor=\(value)", "limit=\(value)", "offset=\(value)", "fragment=\(value)",
                    "\(value)=1", "\(value)__gt=1", "id__\(value)=1", "_\(value)=1", "utm_\(value)=1",
                ]
                if searchable { items.append("q=\(value)") }
                targets += items.map { "\(list)?\($0)" }
            }
            return targets
        }

        /// Asks for each target and checks it is answered 200 or 400; returns the 200s' bodies by target.
        @discardableResult
        static func expectNoServerError(_ server: DatabaseTestServer, _ targets: [String], allowing allowed: Set<Int> = [200, 400])
            throws -> [String: JSON]
        {
            var answers: [String: JSON] = [:]
            for target in targets {
                let response = try server.get(target)
                #expect(allowed.contains(response.status), "\(target.prefix(200)): \(response.status) \(response.text.prefix(300))")
                if response.status == 200, target.contains(".json") {
                    let json = try? JSON.parse(response.body)
                    #expect(json != nil, "\(target.prefix(200)): the body is JSON")
                    answers[target] = json
                }
            }
            return answers
        }

        @Test func sqlInEveryParameterIsABadRequestOrAValue() throws {
            let server = try Self.cellar()
            let before = try server.fileBytes()
            let wines = try Self.expectNoServerError(server, Self.targets("/wines.json", searchable: true))
            try Self.expectNoServerError(
                server, Self.targets("/stock.json", searchable: false).filter { !$0.contains("?name") && !$0.contains("?id") })
            try Self.expectNoServerError(server, Self.targets("/cheap_wines.json", searchable: false))
            try Self.expectNoServerError(server, Self.targets("/wines.csv", searchable: true))
            try Self.expectNoServerError(server, Self.targets("/wines", searchable: true).filter { $0.contains("sort=") || $0.contains("q=") })
            // Values are values: a name no wine has finds nothing, `contains` finds what instr finds.
            for injection in Self.injections {
                let value = percentEncoded(injection)
                if let answer = wines["/wines.json?name=\(value)"] {
                    #expect(answer.rows.isEmpty, "\(injection)")
                }
                let expected = try server.referenceIDs("SELECT id FROM wines WHERE instr(name, ?) > 0 ORDER BY id LIMIT 100", [.text(injection)])
                #expect(wines["/wines.json?name__contains=\(value)"]?.ids == expected, "\(injection)")
            }
            #expect(try server.fileBytes() == before)
            #expect(try server.reference("SELECT count(*) FROM wines")[0][0] == .integer(150))
            #expect(!FileManager.default.fileExists(atPath: "/tmp/cellar-attack.db"))
        }

        @Test func sqlInTheDetailPathFindsNoRow() throws {
            let server = try Self.cellar()
            let before = try server.fileBytes()
            for key in ["1 OR 1=1", "1'--", "1; DROP TABLE wines", "' OR ''='", "1) OR (1=1", "North, 1' --,1", "*"] {
                for list in ["/wines", "/grapes", "/stock", "/regions", "/tasting_notes"] {
                    let response = try server.get("\(list)/\(percentEncoded(key))")
                    #expect(response.status == 404, "\(list)/\(key): \(response.status)")
                }
            }
            #expect(try server.fileBytes() == before)
        }

        @Test func forgedAndForeignCursorsAreBadRequestsOrValues() throws {
            let server = try Self.cellar()
            let before = try server.fileBytes()
            let token = try Self.nextCursor(server, "/wines.json?sort=vintage&limit=3")
            let text = try #require(Self.decodeCursor(token))
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            #expect(parts.count == 5, "\(text): version, position, order, vintage, id")
            let signature = parts[2]

            // Cursors this order could have written, with values no row has: read as values.
            let asValues = [
                "1.3.\(signature).t' OR 1=1 --.i1", "1.3.\(signature).n.i99999", "1.0.\(signature).i2000.t1; DROP TABLE wines",
                "1.3.\(signature).rfff8000000000000.i1", "1.3.\(signature).b00ff.i1", "1.3.\(signature).i-9223372036854775808.n",
                "1.3.\(signature).t%25%2E%00.i1",
            ]
            for forged in asValues {
                let response = try server.get("/wines.json?sort=vintage&limit=3&cursor=\(Self.encodeCursor(forged))")
                #expect(response.status == 200, "\(forged): \(response.text.prefix(300))")
            }
            // Cursors that are not this order's, or not cursors at all.
            let stockCursor = try Self.nextCursor(server, "/stock.json?limit=2")
            let otherSort = try Self.nextCursor(server, "/wines.json?sort=-vintage&limit=3")
            var refused = [
                "garbage", "%00", "====", "-_-_", String(repeating: "A", count: 20_000), stockCursor, otherSort,
                Self.encodeCursor("1.3.\(signature).i2000"), Self.encodeCursor("1.3.\(signature).i2000.i5.i6"),
                Self.encodeCursor("2.3.\(signature).i2000.i5"), Self.encodeCursor("1.-1.\(signature).i2000.i5"),
                Self.encodeCursor("1.3.0.i2000.i5"), Self.encodeCursor("1.3.\(signature).x2000.i5"),
                Self.encodeCursor("1.3.\(signature).b0.i5"), Self.encodeCursor("1.3.\(signature).t%zz.i5"),
                Self.encodeCursor("1.3.\(signature).i99999999999999999999.i5"), Self.encodeCursor("1.3.\(signature).nn.i5"),
                Self.encodeCursor("1.3.\(signature)" + String(repeating: ".i1", count: 5_000)),
                Data([0xff, 0xfe, 0x00, 0x80]).base64EncodedString(),
            ]
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<50 {
                let bytes = (0..<Int.random(in: 1...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                refused.append(Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_"))
            }
            for cursor in refused {
                let response = try server.get("/wines.json?sort=vintage&limit=3&cursor=\(percentEncoded(cursor))")
                #expect(response.status == 400, "\(cursor.prefix(80)): \(response.status) \(response.text.prefix(200))")
            }
            // A view pages by offset: no cursor is its own.
            #expect(try server.get("/cheap_wines.json?cursor=\(percentEncoded(token))").status == 400)
            #expect(try server.fileBytes() == before)
        }

        @Test func aCursorThatClaimsAPositionBeyondAnyListIsRefusedOrServed() throws {
            let server = try Self.cellar()
            let token = try Self.nextCursor(server, "/wines.json?limit=3")
            let parts = try #require(Self.decodeCursor(token)).split(separator: ".").map(String.init)
            for position in ["9223372036854775807", "9223372036854775806", "4611686018427387904", "1099511627776"] {
                let forged = ([parts[0], position] + parts[2...]).joined(separator: ".")
                let response = try server.get("/wines.json?limit=3&cursor=\(Self.encodeCursor(forged))")
                #expect([200, 400].contains(response.status), "position \(position): \(response.status)")
            }
            // The server is still there.
            #expect(try server.get("/wines.json?limit=1").status == 200)
        }

        @Test func valuesOf100KBAreBadRequestsOrValues() throws {
            let server = try Self.cellar()
            let before = try server.fileBytes()
            let huge = String(repeating: "a", count: 100_000)
            let words = String(repeating: "oak ", count: 25_000)
            let digits = String(repeating: "9", count: 100_000)
            let answers = try Self.expectNoServerError(
                server,
                [
                    "/wines.json?name=\(huge)", "/wines.json?name__contains=\(huge)", "/wines.json?vintage=\(digits)",
                    "/wines.json?price__lt=\(digits)", "/wines.json?sort=\(huge)", "/wines.json?cursor=\(huge)", "/wines.json?limit=\(digits)",
                    "/wines.json?offset=\(digits)", "/wines.json?\(huge)=1", "/wines.json?vintage__\(huge)=1", "/wines?name=\(huge)",
                    "/wines.json?q=\(huge)", "/wines/\(huge)", "/grapes/\(huge)",
                    "/stock/\(huge)", "/wines.json?_\(huge)=1&vintage=2001",
                ], allowing: [200, 400, 404])
            #expect(answers["/wines.json?name=\(huge)"]?.rows.isEmpty == true)
            #expect(answers["/wines.json?limit=\(digits)"]?["meta"]?["limit"] == .integer(1000))
            #expect(answers["/wines.json?offset=\(digits)"]?.rows.isEmpty == true)
            // 25,000 words to search for may take longer than the time limit: a 503, not a 500.
            let search = try server.get("/wines.json?q=\(percentEncoded(words))")
            #expect([200, 503].contains(search.status), "\(search.status): \(search.text.prefix(300))")
            if search.status == 200 {
                let oak = try server.referenceIDs("SELECT id FROM wines WHERE notes LIKE '%oak%' ORDER BY id LIMIT 100")
                #expect(try JSON.parse(search.body).ids == oak)
            }
            #expect(try server.fileBytes() == before)
        }

        @Test func malformedPercentEncodingIsABadRequest() throws {
            let server = try Self.cellar()
            for target in [
                "/wines.json?name=%zz", "/wines.json?name=%", "/wines.json?name=%4", "/wines.json?name=%C3", "/wines.json?name=%C3%28",
                "/wines.json?q=%ED%A0%80", "/wines.json?%zz=1", "/wines.json?sort=%FF", "/wines.json?cursor=%", "/wines.json?limit=%zz",
            ] {
                let response = try server.get(target)
                #expect(response.status == 400, "\(target): \(response.status) \(response.text.prefix(200))")
            }
            for target in ["/wines/%zz", "/wines/%", "/wines/%C3", "/wi%zznes.json", "/%C3.json", "/grapes/%C3%28", "/stock/%FF,1"] {
                let response = try server.get(target)
                #expect([400, 404].contains(response.status), "\(target): \(response.status) \(response.text.prefix(200))")
            }
        }

        @Test func negativeMalformedAndHugeLimitsAndOffsets() throws {
            let server = try Self.cellar()
            let cases: [(query: String, status: Int, limit: Int64?, first: String?)] = [
                ("limit=-1", 400, nil, nil),
                ("limit=0", 200, 1, "1"),
                ("limit=1", 200, 1, "1"),
                ("limit=99999999999999999999999999", 200, 1000, "1"),
                ("limit=1e3", 400, nil, nil),
                ("limit=+5", 400, nil, nil),
                ("limit=%205", 400, nil, nil),
                ("limit=5.5", 400, nil, nil),
                ("limit=0x10", 400, nil, nil),
                ("limit=", 200, 100, "1"),
                ("offset=-5", 400, nil, nil),
                ("offset=-0", 400, nil, nil),
                ("offset=1e3", 400, nil, nil),
                ("offset=18446744073709551616", 200, 100, nil),
                ("offset=9223372036854775807&limit=1000", 200, 1000, nil),
                ("offset=149&limit=5", 200, 5, "150"),
                ("offset=150", 200, 100, nil),
                ("limit=5&limit=-1", 200, 5, "1"),
            ]
            for item in cases {
                for list in ["/wines.json", "/cheap_wines.json"] {
                    let response = try server.get("\(list)?\(item.query)")
                    #expect(response.status == item.status, "\(list)?\(item.query): \(response.text.prefix(200))")
                    guard response.status == 200 else { continue }
                    let json = try JSON.parse(response.body)
                    #expect(json["meta"]?["limit"]?.integer == item.limit, "\(list)?\(item.query)")
                    if list == "/wines.json" { #expect(json.ids.first == item.first, "\(list)?\(item.query)") }
                }
            }
        }

        @Test func hundredsOfFiltersAreABadRequestOrAnAnswer() throws {
            let server = try Self.cellar()
            for count in [10, 100, 101, 500, 999, 1200] {
                let query = Array(repeating: "id__gt=0", count: count).joined(separator: "&")
                let response = try server.get("/wines.json?\(query)")
                #expect(response.status == (count <= 100 ? 200 : 400), "\(count) filters: \(response.status) \(response.text.prefix(300))")
            }
            let sorts = Array(repeating: "sort=-vintage&sort=price", count: 500).joined(separator: "&")
            #expect(try server.get("/wines.json?\(sorts)").status == 200)
        }

        // MARK: Helpers

        /// The cursor of the page after `target`.
        static func nextCursor(_ server: DatabaseTestServer, _ target: String) throws -> String {
            let next = try #require(try server.json(target)["links"]?["next"]?.string)
            return try #require(URLComponents(string: next)?.queryItems?.first { $0.name == "cursor" }?.value)
        }

        static func decodeCursor(_ token: String) -> String? {
            var base64 = token.replacing("-", with: "+").replacing("_", with: "/")
            while base64.utf8.count % 4 != 0 { base64 += "=" }
            return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
        }

        static func encodeCursor(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
        }
    }
}
