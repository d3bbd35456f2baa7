import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// What a person exploring a table in the browser uses: the columns layout, headers that sort,
/// the filter form and its chips, the status line; and the totals and cursors they rely on.
extension DatabaseListHTTPTests {
    // MARK: The columns layout

    @Test func aTableIsATableOfColumnsWithItsTitleColumnFirst() throws {
        let server = try Self.cellar()
        let page = try server.get("/wines?limit=5")
        #expect(page.status == 200)
        let text = page.text
        #expect(text.contains("<table class=\"columns\"><thead><tr><th scope=\"col\">"))
        // The header names every column, the title column (`name`) first, then the others in order
        // (in the list's own table: the schema's disclosure above it has a table too).
        let listTable = text[try #require(text.range(of: "<table class=\"columns\">")).lowerBound...]
        let headers = listTable.matches(of: /<th scope="col"[^>]*>(?:<a class="sort" href="[^"]*">)?([^<]*)/).map { String($0.output.1) }
        #expect(
            headers
                == ["name", "id", "producer_id", "vintage", "price", "notes", "label", "mixed", "limit", "select", "we\"ird col"].map(Self.escaped))
        #expect(HTMLRows.identifiers(text) == ["1", "2", "3", "4", "5"])
        #expect(
            text.contains("<tr class=\"cell databasecolumns\" id=\"row-1\"><th scope=\"row\"><a class=\"row-link\" href=\"/wines/1\">Wine 1</a></th>")
        )
        // A number is marked to align, NULL as such, a foreign key by its row's label.
        #expect(text.contains("<td class=\"num\">2001</td>"), "vintage of row 1")
        #expect(text.contains("<td class=\"null\">NULL</td>"))
        #expect(text.contains("<td><a href=\"/producers/2\">Weingut Ä</a></td>"))
        // The rows fragment is the table's sections alone, which "Load more" adds to the table.
        let fragment = try server.get("/wines?limit=5&fragment=rows").text
        #expect(fragment.hasPrefix("<tbody class=\"rows\" id=\"section-0-rows\" data-section=\"0\">"))
        #expect(!fragment.contains("<table"))
        // The JSON does not change with the layout (but for the cell's name).
        let json = try server.json("/wines.json?limit=1")
        #expect(json.rows.first?["cell"]?.string == "DatabaseColumnsCell")
        #expect(json.rows.first?["item"]?["name"]?.string == "Wine 1")
    }

    @Test func theLayoutIsConfiguredPerTable() throws {
        let file = try TemporaryDatabase(DatabaseConfigurationTests.shop)
        for (yaml, columns) in [("layout: cells", false), ("layout: columns", true), ("sort: [name]", true)] {
            let configuration = try DatabaseConfiguration(yaml: "tables:\n  tools:\n    \(yaml)\n", file: "shop.yaml")
            let app = DatabaseConfigurationTests.app()
            try app.mount(Database(path: file.path), configuration: configuration)
            let page = try DatabaseConfigurationTests.body(app, "/tools").text
            #expect(page.contains("<table class=\"columns\">") == columns, "\(yaml)")
            #expect(page.contains("<dl class=\"fields\">") == !columns, "\(yaml)")
        }
        #expect(throws: ConfigurationError.self) {
            try DatabaseConfiguration(yaml: "tables:\n  tools:\n    layout: grid\n", file: "shop.yaml")
        }
    }

    // MARK: Sorting by the headers

    /// Each header links to the next order of its cycle: ascending, descending, none.
    @Test(arguments: ["name", "vintage", "price", "notes", "mixed", "we\"ird col"])
    func aHeaderCyclesItsColumnsOrderAndTheRowsFollowIt(column: String) throws {
        let server = try Self.cellar()
        let quoted = "\"" + column.replacing("\"", with: "\"\"") + "\""
        let encoded = percentEncoded(column).replacing("%20", with: "+")
        var target = "/wines?limit=200"
        var seen: [String] = []
        for expected in ["ascending", "descending", nil] {
            let page = try server.get(target).text
            let header = try #require(
                page.matches(of: /<th scope="col"[^>]*>[^\n]*?<\/th>/).map { String($0.output) }.first { $0.contains(">\(Self.escaped(column))<") },
                "\(column) has a header")
            let link = try #require(header.firstMatch(of: /href="([^"]*)"/).map { HTMLRows.unescaped(String($0.output.1)) })
            target = link
            seen.append(link)
            guard let expected else { continue }
            // After following the link, the list is sorted so, and says so.
            let sorted = try server.get(link).text
            let sortedHeader = try #require(
                sorted.matches(of: /<th scope="col"[^>]*>[^\n]*?<\/th>/).map { String($0.output) }.first { $0.contains(">\(Self.escaped(column))<") })
            #expect(sortedHeader.contains("aria-sort=\"\(expected)\""), "\(link)")
            #expect(sorted.contains("sorted by \(Self.escaped(column))\(expected == "descending" ? ", descending" : "")"), "\(link)")
            let reference = try server.referenceIDs(
                "SELECT id FROM wines ORDER BY \(quoted) \(expected == "ascending" ? "ASC" : "DESC"), id")
            #expect(HTMLRows.identifiers(sorted) == reference, "\(link)")
        }
        #expect(seen == ["/wines?limit=200&sort=\(encoded)", "/wines?limit=200&sort=-\(encoded)", "/wines?limit=200"])
    }

    // MARK: Filters from the form, as chips

    @Test func theFilterFormGoesToTheListsOwnFilterURL() throws {
        let server = try Self.cellar()
        let cases: [(query: String, location: String)] = [
            ("filter_column=vintage&filter_op=gt&filter_value=2003", "/wines?vintage__gt=2003"),
            ("q=oak&sort=-price&filter_column=name&filter_op=exact&filter_value=Wine%201", "/wines?q=oak&sort=-price&name=Wine+1"),
            ("cursor=abc&filter_column=price&filter_op=isnull&filter_value=", "/wines?price__isnull=1"),
            ("filter_column=price&filter_op=notnull", "/wines?price__isnull=0"),
            ("filter_column=limit&filter_op=exact&filter_value=2", "/wines?limit__exact=2"),
            ("filter_column=notes&filter_op=icontains&filter_value=%3Cb%3E", "/wines?notes__icontains=%3Cb%3E"),
        ]
        for (query, location) in cases {
            let answer = try server.get("/wines?" + query)
            #expect(answer.status == 303, "\(query)")
            #expect(answer.headers["Location"] == location, "\(query)")
        }
        for bad in ["filter_column=nope&filter_op=exact&filter_value=1", "filter_column=name&filter_op=like&filter_value=1"] {
            let answer = try server.get("/wines?" + bad)
            #expect(answer.status == 400, "\(bad)")
            #expect(!answer.text.isEmpty)
        }
    }

    @Test func activeFiltersAreChipsThatRemoveThemselves() throws {
        let server = try Self.cellar()
        let page = try server.get("/wines?q=oak&vintage__gte=2002&name__icontains=WINE&limit=5").text
        let expected = try server.referenceIDs(
            """
            SELECT id FROM wines WHERE vintage >= 2002 AND instr(lower(name), 'wine') > 0
            AND id IN (SELECT rowid FROM wines_search WHERE wines_search MATCH 'oak') ORDER BY id
            """)
        #expect(page.contains("\(expected.count) rows match"))
        let chips = page.matches(of: /<li class="chip">([^<]*) <a href="([^"]*)"/).map {
            (HTMLRows.unescaped(String($0.output.1)), HTMLRows.unescaped(String($0.output.2)))
        }
        #expect(chips.map(\.0) == ["Search: “oak”", "vintage ≥ “2002”", "name contains (any case) “WINE”"])
        #expect(
            chips.map(\.1) == [
                "/wines?vintage__gte=2002&name__icontains=WINE&limit=5", "/wines?q=oak&name__icontains=WINE&limit=5",
                "/wines?q=oak&vintage__gte=2002&limit=5",
            ])
        #expect(page.contains("<a class=\"clear\" href=\"/wines?limit=5\">Clear all</a>"))
        // The JSON and CSV links keep the query.
        #expect(page.contains("href=\"/wines.csv?q=oak&amp;vintage__gte=2002&amp;name__icontains=WINE&amp;limit=5\""))
        // The form carries what the list has into the next filter.
        #expect(page.contains("<input type=\"hidden\" name=\"vintage__gte\" value=\"2002\">"))
        #expect(try server.get("/wines").text.contains("<p class=\"list-status\">150 rows · sorted by id"))
    }

    /// `__icontains` folds ASCII letters alone, and reads `%` and `_` as themselves.
    @Test(arguments: [
        ("name__icontains=wine%201", "instr(lower(name), 'wine 1') > 0"),
        ("name__icontains=CH%C3%82TEAU", "instr(lower(name), 'chÂteau') > 0"),
        ("name__icontains=%25", "instr(name, '%') > 0"),
        ("name__icontains=_", "instr(name, '_') > 0"),
        ("notes__icontains=OAK", "instr(lower(notes), 'oak') > 0"),
        ("vintage__icontains=03", "instr(vintage, '03') > 0"),
    ])
    func containsInAnyCaseKeepsTheRowsTheReferenceKeeps(filter: (query: String, condition: String)) throws {
        let server = try Self.cellar()
        let expected = try server.referenceIDs("SELECT id FROM wines WHERE \(filter.condition) ORDER BY id")
        let (rows, _) = try server.walk("/wines.json?\(filter.query)&limit=20")
        #expect(rows.compactMap { $0["id"]?.string } == expected, "\(filter.query)")
    }

    // MARK: Totals and cursors

    @Test func aPagePastTheEndKeepsTheCountedTotal() throws {
        let server = try Self.cellar()
        for target in ["/wines.json?offset=99999", "/wines.json?offset=150", "/wines.json?offset=149&vintage=2003"] {
            let json = try server.json(target)
            let expected: Int64 = target.contains("vintage") ? Int64(try server.referenceIDs("SELECT id FROM wines WHERE vintage = 2003").count) : 150
            #expect(json["meta"]?["total"] == .integer(expected), "\(target)")
            #expect(json["meta"]?["totalIsExact"] == .bool(true), "\(target)")
        }
        #expect(try server.get("/wines?offset=99999").text.contains("150 rows"))
    }

    @Test func aCursorIsReadOnlyWithTheFiltersAndSearchItWasMadeFor() throws {
        let server = try Self.cellar()
        let first = try server.json("/wines.json?vintage__gte=2002&limit=5")
        let next = try #require(first["links"]?["next"]?.string)
        #expect(try server.get(next).status == 200)
        let cursor = try #require(next.firstMatch(of: /cursor=([^&]*)/).map { String($0.output.1) })
        for other in [
            "/wines.json?cursor=\(cursor)&limit=5", "/wines.json?vintage__gte=2003&cursor=\(cursor)&limit=5",
            "/wines.json?vintage__gte=2002&q=oak&cursor=\(cursor)&limit=5",
        ] {
            let answer = try server.get(other)
            #expect(answer.status == 400, "\(other)")
            #expect(answer.text.contains("cursor"), "\(other)")
        }
    }
}
