import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// The controls of a list that has no column headers to click, and the filter form's conditions
/// by the kind of value each column holds.
extension DatabaseListHTTPTests {
    // MARK: The sort menu of the cells layout

    static func cellsLayout() throws -> DatabaseTestServer {
        let configuration = try DatabaseConfiguration(yaml: "tables:\n  wines:\n    layout: cells\n", file: "wines.yaml")
        return try DatabaseTestServer(TemporaryDatabase(CellarFixture.sql), configuration: configuration)
    }

    /// The menu's links, as (label, target, current).
    static func sortMenu(_ page: String) throws -> [(label: String, href: String, current: Bool)] {
        let menu = try #require(page.firstMatch(of: /<details class="sort-menu">.*?<\/details>/.dotMatchesNewlines()).map { String($0.output) })
        return menu.matches(of: /<li><a href="([^"]*)"( aria-current="true")?>([^<]*)<\/a><\/li>/).map {
            (HTMLRows.unescaped(String($0.output.3)), HTMLRows.unescaped(String($0.output.1)), $0.output.2 != nil)
        }
    }

    @Test func aListInTheCellsLayoutHasASortMenuWhoseLinksSortIt() throws {
        let server = try Self.cellsLayout()
        let page = try server.get("/wines?limit=200&vintage__gte=2002").text
        #expect(page.contains("<dl class=\"fields\">"), "the cells layout")
        #expect(page.contains("<summary>Sort: <span class=\"current\">the list’s own order</span></summary><ul aria-label=\"Sort by\">"))
        let choices = try Self.sortMenu(page)
        // The list's own order, then each column both ways, the filter kept and the page's place dropped.
        #expect(choices.first?.label == "The list’s own order")
        #expect(choices.first?.href == "/wines?limit=200&vintage__gte=2002")
        #expect(choices.first?.current == true)
        #expect(choices.count == 1 + 2 * 11)
        #expect(choices.filter(\.current).count == 1)
        for (column, quoted) in [("vintage", "vintage"), ("price", "price"), ("name", "name"), ("we\"ird col", "\"we\"\"ird col\"")] {
            for ascending in [true, false] {
                let label = Self.escaped(column) + (ascending ? ", ascending" : ", descending")
                let choice = try #require(choices.first { HTMLRows.unescaped($0.label) == HTMLRows.unescaped(label) }, "\(label)")
                let sorted = try server.get(choice.href).text
                let reference = try server.referenceIDs(
                    "SELECT id FROM wines WHERE vintage >= 2002 ORDER BY \(quoted) \(ascending ? "ASC" : "DESC"), id")
                #expect(HTMLRows.identifiers(sorted) == reference, "\(choice.href)")
                // The menu names the order in force and marks its link.
                #expect(
                    sorted.contains(
                        "<summary>Sort: <span class=\"current\">\(Self.escaped(column)), \(ascending ? "ascending" : "descending")</span>"))
                let current = try Self.sortMenu(sorted).filter(\.current)
                #expect(current.map(\.href) == [choice.href])
            }
        }
        // A list in the columns layout sorts by its headers instead.
        #expect(!(try Self.cellar().get("/wines").text.contains("sort-menu")))
    }

    @Test func aSortOfSeveralColumnsFromTheURLIsNamedWholeAndMarksNoSingleChoice() throws {
        let server = try Self.cellsLayout()
        let page = try server.get("/wines?sort=-vintage&sort=name&limit=20").text
        #expect(page.contains("<span class=\"current\">vintage, descending, then name, ascending</span>"))
        #expect(try Self.sortMenu(page).filter(\.current).isEmpty)
        #expect(HTMLRows.identifiers(page) == Array(try server.referenceIDs("SELECT id FROM wines ORDER BY vintage DESC, name, id").prefix(20)))
    }

    // MARK: Conditions by the column's kind

    @Test func theFilterFormGroupsItsConditionsByKindAndEachColumnSaysItsKind() throws {
        let page = try Self.cellar().get("/wines").text
        for (column, kind) in [("vintage", "number"), ("price", "number"), ("name", "text"), ("label", "other"), ("mixed", "other")] {
            #expect(page.contains("<option value=\"\(column)\" data-kind=\"\(kind)\">"), "\(column)")
        }
        let groups = page.matches(of: /<optgroup label="([^"]*)" data-kind="([^"]*)">(.*?)<\/optgroup>/).map {
            (String($0.output.1), String($0.output.2), $0.output.3.matches(of: /<option value="([^"]*)">/).map { String($0.output.1) })
        }
        #expect(groups.map(\.0) == ["Numbers", "Text", "Other values"], "no date column, no group of dates")
        #expect(groups.first { $0.1 == "number" }?.2 == ["exact", "not", "lt", "lte", "gt", "gte", "isnull", "notnull"])
        #expect(groups.first { $0.1 == "text" }?.2 == ["icontains", "contains", "exact", "not", "startswith", "isnull", "notnull"])
    }

    @Test func aConditionThatDoesNotFitTheColumnIsRefusedSayingWhichDo() throws {
        let server = try Self.cellar()
        let refused: [(query: String, says: [String])] = [
            ("filter_column=vintage&filter_op=icontains&filter_value=03", ["does not apply to vintage, which holds numbers", "≥ (gte)"]),
            ("filter_column=name&filter_op=gt&filter_value=W", ["does not apply to name, which holds text", "starts with (startswith)"]),
            ("filter_column=price&filter_op=startswith&filter_value=1", ["does not apply to price", "≠ (not)"]),
            ("filter_column=name&filter_op=%3Cscript%3E&filter_value=1", ["Unknown filter condition", "contains (any case) (icontains)"]),
        ]
        for (query, says) in refused {
            let answer = try server.get("/wines?" + query)
            #expect(answer.status == 400, "\(query)")
            for text in says { #expect(answer.text.contains(Self.escaped(text)), "\(query): \(text)") }
            #expect(!answer.text.contains("<script>"))
        }
        let allowed: [(query: String, location: String)] = [
            ("filter_column=name&filter_op=startswith&filter_value=Wine+1", "/wines?name__startswith=Wine+1"),
            ("filter_column=vintage&filter_op=not&filter_value=2003", "/wines?vintage__not=2003"),
            ("filter_column=mixed&filter_op=icontains&filter_value=a", "/wines?mixed__icontains=a"),
        ]
        for (query, location) in allowed {
            let answer = try server.get("/wines?" + query)
            #expect(answer.status == 303, "\(query)")
            #expect(answer.headers["Location"] == location, "\(query)")
        }
    }

    /// `__not` and `__startswith`, which the form offers, keep what the reference keeps.
    @Test(arguments: [
        ("vintage__not=2003", "vintage <> 2003"),
        ("name__not=Wine%201", "name <> 'Wine 1'"),
        ("name__startswith=Wine%201", "substr(name, 1, 6) = 'Wine 1'"),
        ("name__startswith=wine", "substr(name, 1, 4) = 'wine'"),
        ("notes__startswith=%25", "substr(notes, 1, 1) = '%'"),
        ("vintage__startswith=200", "substr(vintage, 1, 3) = '200'"),
    ])
    func notAndStartsWithKeepTheRowsTheReferenceKeeps(filter: (query: String, condition: String)) throws {
        let server = try Self.cellar()
        let expected = try server.referenceIDs("SELECT id FROM wines WHERE \(filter.condition) ORDER BY id")
        let rows = try server.walk("/wines.json?limit=500&" + filter.query).rows
        #expect(rows.map { $0["id"]?.string ?? "" } == expected, "\(filter.query)")
    }

    // MARK: Dates

    static let events = """
        CREATE TABLE events(id INTEGER PRIMARY KEY, title TEXT, day DATE, at DATETIME, guests INTEGER);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
        INSERT INTO events SELECT i, 'Event ' || i, CASE WHEN i % 7 = 0 THEN NULL ELSE date('2024-01-01', '+' || (i * 5) || ' days') END,
            datetime('2024-01-01 08:00:00', '+' || (i * 13) || ' hours'), i % 9 FROM n;
        """

    @Test func aDateColumnIsFilteredBeforeOrAfterADate() throws {
        let server = try DatabaseTestServer(TemporaryDatabase(Self.events))
        let page = try server.get("/events").text
        #expect(page.contains("<option value=\"day\" data-kind=\"date\">"))
        #expect(page.contains("<option value=\"at\" data-kind=\"date\">"))
        #expect(
            page.contains(
                "<optgroup label=\"Dates and times\" data-kind=\"date\"><option value=\"exact\">on</option><option value=\"lt\">before</option><option value=\"gt\">after</option>"
            ))
        let answer = try server.get("/events?filter_column=day&filter_op=lt&filter_value=2024-03-01")
        #expect(answer.status == 303)
        #expect(answer.headers["Location"] == "/events?day__lt=2024-03-01")
        for (query, condition) in [
            ("day__lt=2024-03-01", "day < '2024-03-01'"), ("day__gte=2024-06-15", "day >= '2024-06-15'"),
            ("at__gt=2024-01-10%2012:00:00", "at > '2024-01-10 12:00:00'"), ("day=2024-01-06", "day = '2024-01-06'"),
        ] {
            let filtered = try server.get("/events?limit=100&" + query)
            #expect(filtered.status == 200, "\(query): \(filtered.text.prefix(300))")
            #expect(
                HTMLRows.identifiers(filtered.text) == (try server.referenceIDs("SELECT id FROM events WHERE \(condition) ORDER BY id")), "\(query)")
        }
        let chip = try server.get("/events?day__lt=2024-03-01").text
        #expect(chip.contains("<li class=\"chip\">day before “2024-03-01”"))
        #expect(try server.get("/events?filter_column=day&filter_op=icontains&filter_value=2024").status == 400)
    }
}
