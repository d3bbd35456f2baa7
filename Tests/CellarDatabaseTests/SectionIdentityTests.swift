import Cellar
import Foundation
import MicroHTTP
import Testing

@testable import CellarDatabase

/// A grouped list's sections are named by their values (`DatabaseValue.sectionIdentifier`), typed,
/// the same on every page a group reaches: what "Load more" and live lists match sections by.
struct SectionIdentityTests {
    // MARK: The encoding

    @Test func valuesSQLiteTellsApartHaveDifferentIdentifiers() {
        let values: [DatabaseValue] = [.null, .integer(1), .text("1"), .real(1.5), .text("null"), .text(""), .blob([]), .blob([1]), .text("i:1")]
        let identifiers = values.map(\.sectionIdentifier)
        #expect(identifiers == ["null", "i:1", "t:1", "r:1.5", "t:null", "t:", "b:", "b:01", "t:i:1"])
        #expect(Set(identifiers).count == values.count)
        #expect(DatabaseValue.blob([0x00, 0xFF]).sectionIdentifier == "b:00ff")
        #expect(DatabaseValue.integer(-42).sectionIdentifier == "i:-42")
        #expect(DatabaseValue.integer(.min).sectionIdentifier == "i:-9223372036854775808")
        #expect(DatabaseValue.real(-0.25).sectionIdentifier == "r:-0.25")
        #expect(DatabaseValue.real(1e300).sectionIdentifier == "r:1e+300")
        #expect(DatabaseValue.real(.infinity).sectionIdentifier == "r:inf")
    }

    /// SQLite orders 1 and 1.0 as equal, so their rows interleave: they are one section.
    @Test func anIntegerAndARealOfOneValueAreOneSection() {
        #expect(DatabaseValue.real(1).sectionIdentifier == DatabaseValue.integer(1).sectionIdentifier)
        #expect(DatabaseValue.real(-0.0).sectionIdentifier == "i:0")
        #expect(DatabaseValue.real(1).isInSameSection(as: .integer(1)))
        #expect(DatabaseValue.integer(1).isInSameSection(as: .real(1)))
        #expect(DatabaseValue.real(0).isInSameSection(as: .real(-0.0)))
        #expect(!DatabaseValue.real(1.5).isInSameSection(as: .integer(1)))
        #expect(!DatabaseValue.text("1").isInSameSection(as: .integer(1)))
        #expect(!DatabaseValue.null.isInSameSection(as: .text("")))
        #expect(DatabaseValue.null.isInSameSection(as: .null))
    }

    /// Quotes, spaces, markup and `%` are kept as they are: the page escapes the identifier in
    /// `data-section` and percent-encodes it in ids (TableKit's SectionIdentifierTests).
    @Test func hostileTextIsKeptWhole() {
        for text in [#"say "hi""#, "it's", "a b", " ", "\t\n", "<script>alert(1)</script>", "100%", "%41", "a,b", "é/ü?#&amp;", "\u{0}"] {
            #expect(DatabaseValue.text(text).sectionIdentifier == "t:" + text)
        }
    }

    /// Past 64 bytes of text (32 of a blob) a value is named by a digest of its bytes and their
    /// count: a long group value does not repeat in every id of its section.
    @Test func longValuesAreNamedByADigest() {
        let long = String(repeating: "é", count: 40_000)
        let identifier = DatabaseValue.text(long).sectionIdentifier
        #expect(identifier.hasPrefix("t#") && identifier.hasSuffix("-80000") && identifier.utf8.count < 40)
        #expect(DatabaseValue.text(long).sectionIdentifier == identifier, "the same on every page")
        #expect(DatabaseValue.text(long + "x").sectionIdentifier != identifier)
        #expect(DatabaseValue.text(String(long.dropLast()) + "e").sectionIdentifier != identifier)
        let edge = String(repeating: "x", count: DatabaseValue.longText)
        #expect(DatabaseValue.text(edge).sectionIdentifier == "t:" + edge)
        #expect(DatabaseValue.text(edge + "x").sectionIdentifier.hasPrefix("t#"))
        let blob = [UInt8](repeating: 7, count: 1_000)
        #expect(DatabaseValue.blob(blob).sectionIdentifier.hasPrefix("b#"))
        #expect(DatabaseValue.blob(blob).sectionIdentifier.hasSuffix("-1000"))
        #expect(DatabaseValue.blob(blob).sectionIdentifier != DatabaseValue.blob(blob + [7]).sectionIdentifier)
    }

    // MARK: Pages

    /// A column without a type keeps each value's storage class: NULL, integers, reals, text
    /// that looks like the integers, hostile text and a long one, each group longer than a page.
    static let cellar: String = {
        var sql = "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT, colour);\n"
        let groups = [
            "NULL", "1", "1.0", "2.5", "'1'", "'red'", "'rosé'", "'say \"hi\" <b>&amp; 100%'", "'" + String(repeating: "white ", count: 30) + "'",
        ]
        var id = 0
        for (group, value) in groups.enumerated() {
            for _ in 0..<(3 + group % 4) {
                id += 1
                sql += "INSERT INTO wines VALUES (\(id), 'wine \(id)', \(value));\n"
            }
        }
        return sql
    }()

    static func app(_ file: TemporaryDatabase) throws -> App {
        let app = App(publicDirectory: "/nonexistent-public")
        let configuration = try DatabaseConfiguration(yaml: "tables:\n  wines:\n    sections: colour\n    page_size: 4\n", file: "cellar.yaml")
        try app.mount(Database(path: file.path), configuration: configuration)
        try app.validate()
        return app
    }

    static func body(_ app: App, _ target: String) throws -> String {
        let response = try app.makeRouter().respond(to: Request(target: target))
        #expect(response.status == .ok, "\(target)")
        return String(decoding: response.body.bufferedBytes ?? [], as: UTF8.self)
    }

    /// Walks the list by its cursor, page by page: each page's sections (in its JSON and in its
    /// rows fragment) carry the identifier of the value their rows hold, whatever their number on
    /// the page, so that merging the pages' sections by identifier gives the list's groups.
    @Test func everyPagesSectionsCarryTheirValuesIdentifiers() throws {
        let file = try TemporaryDatabase(Self.cellar)
        let app = try Self.app(file)
        let reference = try SQLiteConnection(path: file.path).rows("SELECT id, colour FROM wines", [])
        var valueOfRow: [String: DatabaseValue] = [:]
        for row in reference { valueOfRow[row[0].identifier] = row[1] }

        var merged: [(id: String, rows: [String])] = []
        var target: String? = "/wines.json"
        var pages = 0
        while let current = target, pages < 100 {
            pages += 1
            let json = try JSON.parse(Array(try Self.body(app, current).utf8))
            let sections = json["sections"]?.array ?? []
            let ids = sections.map { $0["id"]?.string ?? "?" }
            #expect(sections.map { $0["index"]?.integer } == (0..<Int64(sections.count)).map { $0 }, "each page numbers its sections from 0")
            #expect(Set(ids).count == ids.count, "\(current): no identifier twice on a page")
            for (section, id) in zip(sections, ids) {
                let rows = (section["rows"]?.array ?? []).compactMap { $0["id"]?.string }
                #expect(!rows.isEmpty)
                for row in rows {
                    #expect(valueOfRow[row]?.sectionIdentifier == id, "\(current): row \(row) is in section \(id)")
                }
                if merged.last?.id == id { merged[merged.count - 1].rows += rows } else { merged.append((id, rows)) }
            }
            // The page's rows fragment names its sections the same way, escaped and percent-encoded.
            let fragmentTarget = current.replacing("/wines.json", with: "/wines") + (current.contains("?") ? "&" : "?") + "fragment=rows"
            let fragment = try Self.body(app, fragmentTarget)
            let attributes = fragment.matches(of: /<(?:section class="table-section"|tbody class="rows" id="[^"]*") data-section="([^"]*)"/).map {
                HTMLRows.unescaped(String($0.output.1))
            }
            #expect(attributes == ids, "\(fragmentTarget)")
            let listIDs = fragment.matches(of: /<(?:ul|tbody) class="rows" id="section-([^"]*)-rows"/).map { String($0.output.1) }
            #expect(listIDs == ids.map(percentEncoded), "\(fragmentTarget)")
            target = json["links"]?["next"]?.string
        }
        #expect(pages == 10, "39 rows, 4 a page")
        // Merged by identifier, the pages' sections are the list's groups, each once, in order.
        let groups = try SQLiteConnection(path: file.path).rows(
            "SELECT colour, group_concat(id) FROM (SELECT colour, id FROM wines ORDER BY colour, id) GROUP BY colour ORDER BY colour", [])
        #expect(merged.map(\.id) == groups.map { $0[0].sectionIdentifier })
        #expect(merged.map { $0.rows.joined(separator: ",") } == groups.map { $0[1].identifier })
        #expect(Set(merged.map(\.id)).count == merged.count, "a group's pages follow each other")
    }
}
