import Cellar
import Foundation
import HTTPTestSupport
import Showcase
import TableKit
import Testing

/// Every payload of `Tests/e2e/xss_payloads.json` in every field of a list — row text, attribute
/// values, link destinations, section headers and footers, row identifiers, detail fields and JSON
/// items — served as a page, a fragment, details and JSON. Checked by parsing: no payload becomes
/// markup or a live link, and each one comes back exactly.
extension CellarHTTPTests {
    @Suite struct HostileData {
        static var payloads: [String] { Repository.xssPayloads }

        static func hostileServer() throws -> TestServer {
            try TestServer { app in
                try app.register(HostileCell.self)
                try app.registry.registerPrototype(
                    "HostilePrototypeCell",
                    template: "<span class=\"cell-title\" data-payload=\"{{payload}}\" title=\"{{payload}}\">{{payload}}</span>"
                        + " <a class=\"cell-link\" href=\"{{href}}\" data-id=\"{{id}}\">{{payload}}</a>")
                let payloads = payloads
                app.list("/hostile", title: "Hostile " + payloads[0], paging: .pages(defaultLimit: 1000, maxLimit: 1000)) { _ in
                    HostileController(payloads: payloads)
                }
            }
        }

        @Test func thePayloadsAreManyAndDistinct() {
            #expect(Self.payloads.count >= 100)
            #expect(Set(Self.payloads).count == Self.payloads.count)
        }

        @Test func thePageShowsEveryPayloadAsText() throws {
            let server = try Self.hostileServer()
            let page = try server.get("/hostile")
            #expect(page.status == 200)
            #expect(page.text.hasPrefix("<!doctype html>"))
            #expect(page.body.occurrences(of: "<li class=\"cell ") == 2 * Self.payloads.count)
            try Self.expectSafe(page.body)
        }

        @Test func theFragmentShowsEveryPayloadAsText() throws {
            let server = try Self.hostileServer()
            for fragment in [try server.get("/hostile?fragment=rows"), try server.get("/hostile", headers: [("HX-Request", "true")])] {
                #expect(fragment.status == 200)
                #expect(!fragment.text.contains("<html"))
                try Self.expectSafe(fragment.body)
            }
        }

        /// Markup checks, text, attribute values, section titles and row identifiers, all by parsing.
        static func expectSafe(_ html: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try HTMLInspector.checkMarkup([html], expectText: Repository.xssPayloadsPath) == nil, sourceLocation: sourceLocation)
            for attribute in ["data-payload", "title"] {
                let problems = try HTMLInspector.attributeValues(attribute, in: html, expected: payloads)
                #expect(problems.isEmpty, "\(attribute): \(problems.prefix(10))", sourceLocation: sourceLocation)
            }
            // Identifiers: the row's DOM id and the prototype's `{{id}}`, percent-encoded and given back whole.
            let ids = payloads + payloads.map { "copy " + $0 }
            let rowIDs = try HTMLInspector.attributeValues("id", in: html, expected: ids, decodePercent: true, prefix: "row-")
            #expect(rowIDs.isEmpty, "row ids: \(rowIDs.prefix(10))", sourceLocation: sourceLocation)
            let dataIDs = try HTMLInspector.attributeValues("data-id", in: html, expected: payloads.map { "copy " + $0 })
            #expect(dataIDs.isEmpty, "data-id: \(dataIDs.prefix(10))", sourceLocation: sourceLocation)

            let elements = try HTMLInspector.elements(html)
            let headers = elements.filter { $0.tag == "h2" && $0.hasClass("section-header") }.map(\.text)
            let footers = elements.filter { $0.tag == "p" && $0.hasClass("section-footer") }.map(\.text)
            #expect(headers.map(Self.canonical) == payloads.map { Self.canonical("Header " + $0) }, sourceLocation: sourceLocation)
            #expect(footers.map(Self.canonical) == payloads.map { Self.canonical("Footer " + $0) }, sourceLocation: sourceLocation)
            // Links: only http(s), mailto and relative destinations are kept, and each is the payload itself.
            for link in elements where link.tag == "a" && link.hasClass("hostile-link") {
                guard let href = link.attributes["href"] else { continue }
                #expect(HTMLWriter.isSafeURL(href), "\(href)", sourceLocation: sourceLocation)
            }
        }

        static func canonical(_ text: String) -> String { HostileTextCanonical.canonical(text) }

        @Test func theJSONGivesBackEveryPayloadExactly() throws {
            let server = try Self.hostileServer()
            for response in [try server.get("/hostile.json"), try server.getAcceptingJSON("/hostile")] {
                #expect(response.status == 200)
                #expect(!response.body.contains(UInt8(ascii: "<")), "no raw < in JSON")
                #expect(!response.body.contains(UInt8(ascii: ">")))
                #expect(!String(decoding: response.body, as: UTF8.self).unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
                #expect(!String(decoding: response.body, as: UTF8.self).unicodeScalars.contains { $0 == "\u{202E}" }, "bidi controls escaped")
                let json = try ListJSON(parsing: response.body)
                #expect(json.title == "Hostile " + Self.payloads[0])
                #expect(json.sections.count == Self.payloads.count)
                for (section, payload) in zip(json.sections, Self.payloads) {
                    #expect(section.header.map { Array($0.unicodeScalars) } == Array(("Header " + payload).unicodeScalars))
                    #expect(section.footer.map { Array($0.unicodeScalars) } == Array(("Footer " + payload).unicodeScalars))
                    #expect(section.rows.count == 2)
                    guard section.rows.count == 2 else { continue }
                    #expect(Array(section.rows[0].id.unicodeScalars) == Array(payload.unicodeScalars))
                    #expect(section.rows[1].id == "copy " + payload)
                    for row in section.rows {
                        #expect(row.item == HostileItem(payload).expectedJSON, "item of \(payload.debugDescription)")
                    }
                }
            }
        }

        @Test func everyDetailShowsItsPayloadAsTextAndAsJSON() throws {
            let server = try Self.hostileServer()
            let list = try server.list("/hostile.json")
            var pages: [[UInt8]] = []
            var shown: [String] = []
            for (section, payload) in zip(list.sections, Self.payloads) {
                guard let row = section.rows.first, let href = row.href else {
                    Issue.record("no row for \(payload.debugDescription)")
                    continue
                }
                #expect(href == "/hostile/" + Self.percentEncoded(payload))
                // An identifier holding `/` is linked with `%2F`, which the router keeps inside its segment.
                let page = try server.get(href)
                #expect(page.status == 200, "detail of \(payload.debugDescription) at \(href)")
                pages.append(page.body)
                shown.append(payload)

                let responses = [try server.getAcceptingJSON(href), try server.get(href + ".json")]
                for response in responses {
                    #expect(response.status == 200)
                    #expect(!response.body.contains(UInt8(ascii: "<")))
                    let detail = try DetailJSON(parsing: response.body)
                    #expect(Array(detail.id.unicodeScalars) == Array(payload.unicodeScalars))
                    #expect(Array(detail.title.unicodeScalars) == Array(payload.unicodeScalars))
                    #expect(detail.fields.map { Array($0.label.unicodeScalars) } == [Array(payload.unicodeScalars), Array("Again".unicodeScalars)])
                    #expect(detail.fields.map { Array($0.value.unicodeScalars) } == [Array(payload.unicodeScalars), Array(payload.unicodeScalars)])
                    #expect(detail.item == HostileItem(payload).expectedJSON)
                    #expect(detail.links.current == href)
                }
            }
            #expect(shown.count == Self.payloads.count)
            // All the detail pages together: safe, and every payload shown as text.
            #expect(try HTMLInspector.checkMarkup(pages, expectText: shown) == nil)
            for (elements, payload) in zip(try HTMLInspector.elements(of: pages), shown) {
                #expect(elements.filter { $0.tag == "h1" }.map { Self.canonical($0.text) } == [Self.canonical(payload)])
                #expect(elements.filter { $0.tag == "dd" }.map { Self.canonical($0.text) } == [Self.canonical(payload), Self.canonical(payload)])
            }
        }

        @Test func theShowcaseHostileListIsSafeToo() throws {
            let server = try TestServer.showcase(hostilePayloads: Self.payloads)
            let page = try server.get("/xss?limit=1000")
            #expect(page.status == 200)
            #expect(try HTMLInspector.checkMarkup([page.body], expectText: Repository.xssPayloadsPath) == nil)
            for fragment in [try server.get("/xss?limit=1000&fragment=rows"), try server.get("/xss?limit=1000", headers: [("HX-Request", "true")])] {
                #expect(try HTMLInspector.checkMarkup([fragment.body], expectText: Repository.xssPayloadsPath) == nil)
            }
            let response = try server.get("/xss.json?limit=1000")
            #expect(!response.body.contains(UInt8(ascii: "<")))
            let json = try ListJSON(parsing: response.body)
            #expect(json.rows.map { $0.item?["payload"]?.string.map { Array($0.unicodeScalars) } } == Self.payloads.map { Array($0.unicodeScalars) })
            // Every row's detail is reachable, whatever its identifier holds.
            var details: [[UInt8]] = []
            var shown: [String] = []
            for (row, payload) in zip(json.rows, Self.payloads) {
                let href = try #require(row.href)
                let detail = try server.get(href)
                #expect(detail.status == 200, "\(row.id.debugDescription) at \(href)")
                details.append(detail.body)
                shown.append(payload)
            }
            #expect(try HTMLInspector.checkMarkup(details, expectText: shown) == nil)
        }

        static func percentEncoded(_ text: String) -> String {
            var html = HTMLWriter()
            html.pathSegment(text)
            return html.string
        }
    }
}

/// A row's JSON: the payload as a value, as a key, nested, and in an array.
struct HostileItem: Encodable {
    let payload: String
    init(_ payload: String) { self.payload = payload }

    private enum CodingKeys: String, CodingKey { case payload, nested, list, keyed }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(payload, forKey: .payload)
        try container.encode(["inner": payload], forKey: .nested)
        try container.encode([payload, payload], forKey: .list)
        try container.encode([payload: 1], forKey: .keyed)
    }

    var expectedJSON: JSONValue {
        .object([
            "payload": .string(payload), "nested": .object(["inner": .string(payload)]), "list": .array([.string(payload), .string(payload)]),
            "keyed": .object([payload: .integer(1)]),
        ])
    }
}

/// A class cell that puts its payload in text, in attributes and in a link.
final class HostileCell: TableViewCell, ConfigurableCell {
    var payload = ""

    func configure(with data: String) { payload = data }
    override func prepareForReuse() { payload = "" }

    override func render(into html: inout HTMLWriter) throws {
        html.raw("<span class=\"cell-title\"")
        html.attribute("data-payload", payload)
        html.attribute("title", payload)
        html.raw(">")
        html.text(payload)
        html.raw("</span> <a class=\"hostile-link\"")
        html.urlAttribute("href", payload)
        html.raw(">")
        html.text(payload)
        html.raw("</a>")
        if let selection {
            html.raw(" <a class=\"cell-link\" href=\"")
            selection.write(into: &html)
            html.raw("\">Open</a>")
        }
    }
}

/// One section per payload: the header, the footer, a class-cell row whose identifier is the
/// payload, and a prototype-cell row.
struct HostileController: TableController {
    let payloads: [String]
    let rowsByIdentifier: [String: IndexPath]

    init(payloads: [String]) {
        self.payloads = payloads
        var rows: [String: IndexPath] = [:]
        for (section, payload) in payloads.enumerated() {
            rows[payload] = IndexPath(row: 0, section: section)
            rows["copy " + payload] = IndexPath(row: 1, section: section)
        }
        rowsByIdentifier = rows
    }

    var title: String { "Hostile " + payloads[0] }
    var numberOfSections: Int { payloads.count }
    func numberOfRows(inSection section: Int) -> Int { 2 }
    func titleForHeader(inSection section: Int) -> String? { "Header " + payloads[section] }
    func titleForFooter(inSection section: Int) -> String? { "Footer " + payloads[section] }

    func identifier(forRowAt indexPath: IndexPath) -> String {
        indexPath.row == 0 ? payloads[indexPath.section] : "copy " + payloads[indexPath.section]
    }

    func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? { rowsByIdentifier[identifier] }

    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let payload = payloads[indexPath.section]
        if indexPath.row == 0 {
            return DataCellProvider(for: indexPath, cell: HostileCell.self, data: payload)
        }
        return DataCellProvider(prototype: "HostilePrototypeCell", for: indexPath, data: ["payload": payload])
    }

    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { HostileItem(payloads[indexPath.section]) }

    func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
        let payload = payloads[indexPath.section]
        return RowDetail(title: payload, fields: [.init(payload, payload, link: payload), .init("Again", payload)])
    }
}

enum HostileTextCanonical {
    /// What an HTML parser gives back for a string, as check_markup.py compares: CR and CRLF as
    /// LF, and C0 controls (but tab, LF, FF), noncharacters and U+FFFD dropped.
    static func canonical(_ text: String) -> String {
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var scalars = String.UnicodeScalarView()
        for scalar in normalised.unicodeScalars {
            let value = scalar.value
            let dropped =
                (value <= 0x08) || value == 0x0B || (0x0E...0x1F).contains(value) || value == 0x7F || (0xFDD0...0xFDEF).contains(value)
                || value == 0xFFFD || value == 0xFFFE || value == 0xFFFF
            if !dropped { scalars.append(scalar) }
        }
        return String(scalars)
    }
}
