import Cellar
import Foundation
import HTTPTestSupport
import TableKit
import Testing

/// `app.form`, over sockets: a form of every field kind shown as a page, decoded from a browser's
/// form and from JSON, its mistakes answered 422 in place (values kept, every message on its field
/// and in the summary), its limits (413, field count and length 400), Post/Redirect/Get, a multipart
/// body 415 and a cross-site POST 403.
@Suite struct FormsTests {
    enum Color: String, Codable, Equatable { case red, green }

    /// One field of each kind, and the optional forms of numbers and days.
    struct Everything: Codable, Equatable {
        var name: String
        var bio: String?
        var count: Int
        var price: Double?
        var born: CalendarDay?
        var met: Date?
        var subscribed: Bool
        var color: Color
        var secret: String
    }

    struct EverythingForm: FormController {
        var sections: [FormSection] {
            [
                FormSection(
                    header: "Who", footer: "All of it <stays> here.",
                    fields: [
                        .text("name", label: "Name", isRequired: true, placeholder: "Ada", maxLength: 40),
                        .textArea("bio", label: "Bio", help: "A line or two."),
                        .secure("secret", label: "Secret", autocomplete: "new-password"),
                    ]),
                FormSection(
                    header: "What",
                    fields: [
                        .number("count", label: "Count", isRequired: true, minimum: 1, maximum: 10, value: "1"),
                        .number("price", label: "Price", allowsDecimals: true),
                        .date("born", label: "Born"),
                        .date("met", label: "Met"),
                        .toggle("subscribed", label: "Subscribed", isOn: true),
                        .picker("color", label: "Color", options: [.init("red", "Red"), .init("green", "Green")], isRequired: true),
                    ]),
            ]
        }
        var submitTitle: String { "Keep it" }
    }

    final class Store: Sendable {
        private let kept = Locked<[Everything]>([])
        var all: [Everything] { kept.withLock { $0 } }
        func add(_ value: Everything) { kept.withLock { $0.append(value) } }
    }

    struct NamesController: TableController {
        let names: [String]
        func numberOfRows(inSection section: Int) -> Int { names.count }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(for: indexPath, cell: PlainTextCell.self, data: names[indexPath.row])
        }
    }

    static func server(limits: FormLimits = FormLimits()) throws -> (TestServer, Store) {
        let store = Store()
        let server = try TestServer { app in
            try app.register(PlainTextCell.self)
            app.list("/things", title: "Things") { _ in NamesController(names: store.all.map(\.name)) }
            app.form("/things/new", title: "New thing", limits: limits, { _ in EverythingForm() }) { (value: Everything, _) in
                guard value.name != "taken" else { throw FormValidationError("name", "That name is taken: choose another.") }
                // The handler's own decoding fails: the server's fault, not a field's.
                if value.name == "corrupt" { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the store's file")) }
                store.add(value)
                return .created(at: "/things")
            }
        }
        return (server, store)
    }

    static let browser = [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin")]
    static let script = [("Content-Type", "application/json")]

    static func post(_ server: TestServer, _ body: String, headers: [(String, String)] = browser, path: String = "/things/new") throws
        -> TestHTTPResponse
    {
        try TestHTTPClient.send("POST", path, port: server.port, headers: headers, body: Array(body.utf8))
    }

    static let complete =
        "name=Ada+Lovelace&bio=Counts.&secret=s%26cret&count=7&price=2.5&born=1815-12-10&met=1833-06-05&subscribed=0&subscribed=1&color=green"

    @Test func aGetShowsEveryFieldCellInAPostForm() throws {
        let (server, _) = try Self.server()
        let page = try server.get("/things/new")
        #expect(page.status == 200)
        #expect(page.headers["Cache-Control"] == "no-store")
        #expect(page.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        let html = page.text
        #expect(html.contains("<title>New thing · Cellar</title>"))
        #expect(
            html.contains(
                "<h1>New thing</h1>\n<form class=\"form\" method=\"post\" action=\"/things/new\" novalidate>\n<section class=\"table-section\""))
        #expect(html.contains(#"<h2 class="section-header" id="section-0-header">Who</h2>"#))
        #expect(html.contains(#"<p class="section-footer" id="section-0-footer">All of it &lt;stays&gt; here.</p>"#))
        #expect(html.contains(#"<li class="cell textfield" id="row-name"><label class="field-label" for="field-name">Name</label>"#))
        #expect(
            html.contains(
                #"<input class="field-input" type="text" id="field-name" name="name" required value="" placeholder="Ada" maxlength="40">"#))
        #expect(html.contains(#"<textarea class="field-input" rows="4" id="field-bio" name="bio" aria-describedby="field-bio-help""#))
        #expect(html.contains(#"<p class="field-help" id="field-bio-help">A line or two.</p>"#))
        #expect(
            html.contains(
                #"<input class="field-input" type="password" id="field-secret" name="secret" maxlength="1000" autocomplete="new-password">"#))
        #expect(html.contains(#"type="number" id="field-count" name="count" required value="1" min="1" max="10" step="1" inputmode="numeric">"#))
        #expect(html.contains(#"type="number" id="field-price" name="price" step="any" inputmode="decimal">"#))
        #expect(html.contains(#"<input class="field-input" type="date" id="field-born" name="born">"#))
        #expect(
            html.contains(
                #"<input type="hidden" value="0" name="subscribed"><input class="field-switch" type="checkbox" value="1" id="field-subscribed" name="subscribed" checked>"#
            ))
        #expect(
            html.contains(
                #"<select class="field-input" id="field-color" name="color" required><option value="">Choose…</option><option value="red">Red</option><option value="green">Green</option></select>"#
            ))
        #expect(html.contains(#"<div class="form-actions"><button class="button" type="submit">Keep it</button></div>"#))
        #expect(!html.contains("error-summary"))
        #expect(!html.contains("aria-invalid"))
    }

    @Test func everyFieldKindDecodesFromABrowsersForm() throws {
        let (server, store) = try Self.server()
        let kept = try Self.post(server, Self.complete)
        #expect(kept.status == 303)
        #expect(kept.headers["Location"] == "/things")
        let value = try #require(store.all.first)
        #expect(value.name == "Ada Lovelace")
        #expect(value.bio == "Counts.")
        #expect(value.secret == "s&cret")
        #expect(value.count == 7)
        #expect(value.price == 2.5)
        #expect(value.born == CalendarDay(year: 1815, month: 12, day: 10))
        #expect(value.met == ISO8601DateFormatter().date(from: "1833-06-05T00:00:00Z"))
        #expect(value.subscribed)
        #expect(value.color == .green)
        // Empty optional fields are nil; a switch left off sends only its hidden 0.
        let sparse = try Self.post(server, "name=Bo&bio=&secret=&count=3&price=&born=&met=&subscribed=0&color=red")
        #expect(sparse.status == 303)
        let second = try #require(store.all.last)
        #expect(second == Everything(name: "Bo", bio: nil, count: 3, price: nil, born: nil, met: nil, subscribed: false, color: .red, secret: ""))
    }

    @Test func everyFieldKindDecodesFromJSON() throws {
        let (server, store) = try Self.server()
        let body =
            #"{"name":"Ada","bio":"Counts.","secret":"x","count":7,"price":2.5,"born":"1815-12-10","met":"1833-06-05","subscribed":true,"color":"green"}"#
        let kept = try Self.post(server, body, headers: Self.script)
        #expect(kept.status == 201)
        #expect(kept.headers["Location"] == "/things")
        #expect(kept.headers["Content-Type"] == "application/json")
        let json = try kept.json()
        #expect(json["name"] == .string("Ada"))
        #expect(json["count"] == .integer(7))
        #expect(json["price"] == .double(2.5))
        #expect(json["born"] == .string("1815-12-10"))
        #expect(json["met"] == .string("1833-06-05T00:00:00Z"))
        #expect(json["subscribed"] == .bool(true))
        #expect(json["color"] == .string("green"))
        #expect(store.all.first?.color == .green)
        // Nulls and missing optional fields are nil; a missing switch is off.
        let sparse = try Self.post(server, #"{"name":"Bo","count":"3","price":null,"color":"red"}"#, headers: Self.script)
        #expect(sparse.status == 201)
        #expect(
            store.all.last == Everything(name: "Bo", bio: nil, count: 3, price: nil, born: nil, met: nil, subscribed: false, color: .red, secret: ""))
    }

    @Test func mistakesAre422InPlaceWithTheValuesKept() throws {
        let (server, store) = try Self.server()
        let body =
            "name=&bio=%3Cscript%3Ealert(1)%3C%2Fscript%3E&secret=hunter2&count=eleven&price=%22%3E%3Cb%3E&born=2026-02-30&met=&subscribed=0&color=purple"
        let refused = try Self.post(server, body)
        #expect(refused.status == 422)
        #expect(refused.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(refused.headers["Cache-Control"] == "no-store")
        #expect(store.all.isEmpty)
        let html = refused.text
        #expect(html.contains("<title>Error: New thing · Cellar</title>"))
        // The summary: an alert with a heading and a link to each field at fault, in the form's order.
        #expect(
            html.contains(
                """
                <div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>
                <h2 id="error-summary-title">5 fields need attention</h2>
                <ul>
                <li><a href="#field-name">Name is required.</a></li>
                <li><a href="#field-count">Count must be a number, like 12.</a></li>
                <li><a href="#field-price">Price must be a number, like 12.</a></li>
                <li><a href="#field-born">Born must be a date, like 2026-11-28.</a></li>
                <li><a href="#field-color">Choose one of the options for Color.</a></li>
                </ul>
                </div>
                """))
        // Each field at fault: marked, its message before it and tied to it; the values kept, escaped.
        #expect(html.contains(#"<p class="field-error" id="field-name-error"><span class="visually-hidden">Error: </span>Name is required.</p>"#))
        #expect(html.contains(#"id="field-name" name="name" required aria-invalid="true" aria-describedby="field-name-error" value="""#))
        // A number or a day the control cannot hold is left out, as a browser would drop it.
        #expect(html.contains(#"id="field-count" name="count" required aria-invalid="true" aria-describedby="field-count-error" min="1""#))
        #expect(html.contains(#"id="field-price" name="price" aria-invalid="true" aria-describedby="field-price-error" step="any""#))
        #expect(html.contains(#"id="field-born" name="born" aria-invalid="true" aria-describedby="field-born-error">"#))
        #expect(html.contains(#"id="field-color" name="color" required aria-invalid="true" aria-describedby="field-color-error">"#))
        #expect(html.contains(">\n&lt;script&gt;alert(1)&lt;/script&gt;</textarea>"))
        #expect(!html.contains("<script>alert(1)"))
        #expect(!html.contains("<b>"))
        // The switch is shown off, as sent; the password is not written back.
        #expect(html.contains(#"type="checkbox" value="1" id="field-subscribed" name="subscribed">"#))
        #expect(!html.contains("hunter2"))
        #expect(html.components(separatedBy: "aria-invalid=\"true\"").count - 1 == 5)
        // The app's own refusal comes back the same way.
        let taken = try Self.post(server, Self.complete.replacingOccurrences(of: "name=Ada+Lovelace", with: "name=taken"))
        #expect(taken.status == 422)
        #expect(taken.text.contains(##"<li><a href="#field-name">That name is taken: choose another.</a></li>"##))
        #expect(taken.text.contains(#"name="name" required aria-invalid="true" aria-describedby="field-name-error" value="taken""#))
        #expect(taken.text.contains(#"value="7""#))
        let corrupt = try Self.post(server, Self.complete.replacingOccurrences(of: "name=Ada+Lovelace", with: "name=corrupt"))
        #expect(corrupt.status == 500)
        // Markup sent in a text field is kept as text in its value.
        let markup = try Self.post(server, "name=%22%3E%3Cb%3Ex&count=0&color=red")
        #expect(markup.status == 422)
        #expect(markup.text.contains(#"id="field-name" name="name" required value="&quot;&gt;&lt;b&gt;x""#))
        #expect(markup.text.contains(##"<li><a href="#field-count">Count must be between 1 and 10.</a></li>"##))
        #expect(store.all.isEmpty)
    }

    @Test func mistakesInJSONAre422WithEachFieldsMessage() throws {
        let (server, store) = try Self.server()
        let refused = try Self.post(server, #"{"name":"","count":42,"born":"yesterday","subscribed":"maybe","color":"blue"}"#, headers: Self.script)
        #expect(refused.status == 422)
        #expect(refused.headers["Content-Type"] == "application/json")
        let json = try refused.json()
        #expect(json["error"] == .string("5 fields need attention"))
        #expect(
            json["fields"]
                == .object([
                    "name": .string("Name is required."), "count": .string("Count must be between 1 and 10."),
                    "born": .string("Born must be a date, like 2026-11-28."), "subscribed": .string("Subscribed must be on or off."),
                    "color": .string("Choose one of the options for Color."),
                ]))
        // A browser's form with Accept: application/json gets the same shape.
        let accepting = try Self.post(server, "name=&count=1&color=red", headers: Self.browser + [("Accept", "application/json")])
        #expect(accepting.status == 422)
        #expect(try accepting.json()["fields"] == .object(["name": .string("Name is required.")]))
        #expect(store.all.isEmpty)
    }

    @Test func bodiesOverTheLimitsAreRefused() throws {
        let (server, store) = try Self.server(limits: FormLimits(maxBodySize: 2048, maxFieldCount: 20))
        // The form's own body limit, then the server's (1 MiB), both 413.
        let large = try Self.post(server, Self.complete + "&pad=" + String(repeating: "x", count: 4096))
        #expect(large.status == 413)
        #expect(large.text.contains("This form takes at most 2048 bytes"))
        let huge = try Self.post(server, "pad=" + String(repeating: "x", count: 1 << 20 + 10))
        #expect(huge.status == 413)
        #expect(!huge.text.contains("This form takes"))
        // Too many fields, and a field longer than its maxlength: 400, naming the field.
        let many = try Self.post(server, Self.complete + String(repeating: "&x=1", count: 20))
        #expect(many.status == 400)
        #expect(many.text.contains("The form sent 30 fields; it takes at most 20."))
        let long = try Self.post(
            server, Self.complete.replacingOccurrences(of: "name=Ada+Lovelace", with: "name=" + String(repeating: "a", count: 41)))
        #expect(long.status == 400)
        #expect(long.text.contains("The field &#39;name&#39; is longer than 40 characters."))
        let longJSON = try Self.post(server, #"{"name":"\#(String(repeating: "é", count: 41))","count":1,"color":"red"}"#, headers: Self.script)
        #expect(longJSON.status == 400)
        #expect(try longJSON.json()["error"]?["message"] == .string("The field 'name' is longer than 40 characters."))
        let nested = try Self.post(server, #"{"name":["a"],"count":1,"color":"red"}"#, headers: Self.script)
        #expect(nested.status == 400)
        let notJSON = try Self.post(server, "{name", headers: Self.script)
        #expect(notJSON.status == 400)
        #expect(store.all.isEmpty)
    }

    @Test func aMultipartBodyIs415WithAMessage() throws {
        let (server, store) = try Self.server()
        let multipart = try Self.post(
            server, "--x\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n--x--\r\n",
            headers: [("Content-Type", "multipart/form-data; boundary=x"), ("Sec-Fetch-Site", "same-origin")])
        #expect(multipart.status == 415)
        #expect(multipart.text.contains("does not take multipart/form-data"))
        #expect(store.all.isEmpty)
    }

    @Test func aKeptFormRedirectsToAPageThatShowsIt() throws {
        let (server, _) = try Self.server()
        let kept = try Self.post(server, Self.complete)
        #expect(kept.status == 303)
        #expect(kept.body.count == 0)
        let location = try #require(kept.headers["Location"])
        let list = try server.get(location)
        #expect(list.status == 200)
        #expect(list.text.contains("Ada Lovelace"))
    }

    @Test func aCrossSitePostIsRefusedBeforeTheForm() throws {
        let (server, store) = try Self.server()
        let bySecFetchSite = try Self.post(
            server, Self.complete, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "cross-site")])
        #expect(bySecFetchSite.status == 403)
        let byOrigin = try Self.post(
            server, Self.complete, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "https://evil.example")])
        #expect(byOrigin.status == 403)
        #expect(store.all.isEmpty)
    }
}

/// The example of Cellar.docc/Forms.md, served: it shows its form, refuses a mistake and a day in
/// the future, keeps a note and sends the browser on, and answers a script in JSON.
@Suite struct FormsArticleTests {
    @Test func theArticlesFormWorksAsItSays() throws {
        let notes = FormsArticle.notes
        let server = try TestServer { app in FormsArticle.addForm(to: app) }
        let page = try server.get("/notes/new")
        #expect(page.status == 200)
        #expect(page.text.contains(#"<select class="field-input" id="field-rating" name="rating" required>"#))
        let post = { (body: String) in try FormsTests.post(server, body, path: "/notes/new") }
        let missing = try post("wine=&rating=4&tasted=2026-01-02&buyAgain=0")
        #expect(missing.status == 422)
        #expect(missing.text.contains(##"<li><a href="#field-wine">Wine is required.</a></li>"##))
        let future = try post("wine=Musar&rating=4&tasted=9999-01-02&buyAgain=0")
        #expect(future.status == 422)
        #expect(future.text.contains(##"<li><a href="#field-tasted">Tasted on cannot be in the future.</a></li>"##))
        let kept = try post("wine=Musar&rating=4&tasted=2020-01-02&notes=&buyAgain=0&buyAgain=1")
        #expect(kept.status == 303)
        #expect(kept.headers["Location"] == "/notes")
        let note = try #require(notes.withLock { $0.first })
        #expect(note.wine == "Musar" && note.rating == 4 && note.tasted.description == "2020-01-02" && note.notes == nil && note.buyAgain)
        let json = try FormsTests.post(
            server, #"{"wine":"Tempier","rating":5,"tasted":"2021-05-06"}"#, headers: FormsTests.script, path: "/notes/new")
        #expect(json.status == 201)
        #expect(try json.json()["tasted"] == .string("2021-05-06"))
        #expect(notes.withLock { $0.count } == 2)
    }
}

extension FormsArticleTests {
    /// Every line of the article's Swift is a line of FormsArticleExample.swift (`import` lines
    /// aside; a `let` of the article's is `static` there), so an edit to one shows in the other.
    @Test func theArticlesSwiftIsTheSwiftCompiledHere() throws {
        let article = try String(contentsOfFile: Repository.root + "/Sources/Cellar/Cellar.docc/Forms.md", encoding: .utf8)
        let example = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FormsArticleExample.swift").path,
            encoding: .utf8)
        let exampleLines = Set(example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var inSwift = false
        var checked = 0
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```swift" { inSwift = true; continue }
            if line == "```" { inSwift = false; continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard inSwift, !trimmed.isEmpty, !trimmed.hasPrefix("import ") else { continue }
            #expect(
                exampleLines.contains(trimmed) || exampleLines.contains("static " + trimmed), "Forms.md has a line the example does not: \(trimmed)")
            checked += 1
        }
        #expect(checked > 30)
    }
}

extension FormsTests {
    struct TwiceNamed: FormController {
        var sections: [FormSection] { [FormSection(fields: [.text("name", label: "Name"), .textArea("name", label: "Also name")])] }
    }

    /// A form is made and rendered at start-up: two fields of one name stop the start, naming the form and the field.
    @Test func twoFieldsOfOneNameStopTheStart() throws {
        let app = App(publicDirectory: Repository.publicDirectory)
        app.form("/twice", title: "Twice", { _ in TwiceNamed() }) { (value: [String: String], _) in .created(at: "/") }
        #expect {
            try app.validate()
        } throws: { error in
            guard case .formDoesNotRender(let path, let reason) = error as? StartupError else { return false }
            return path == "/twice" && reason.contains("two fields are named 'name'")
        }
        let good = App(publicDirectory: Repository.publicDirectory)
        good.form("/everything", title: "Everything", { _ in EverythingForm() }) { (value: Everything, _) in .created(at: "/") }
        try good.validate()
    }
}
