import Cellar
import CellarDatabase
import Foundation
import HTTPTestSupport
import Testing

/// A foreign key into a table of 1,000 rows, past the 300 a form lists: the schema's forms show a
/// field found by searching — suggestions as JSON for the script, and without one a GET step
/// ("Choose…") whose page of matches sends the person back to the form with the key set and their
/// other values kept, for a new row and for an edit.
@Suite struct DatabaseWriteChoiceSearchTests {
    static let sql = """
        CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        INSERT INTO people(id, name)
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i, 'Person ' || printf('%04d', i) FROM n;
        UPDATE people SET name = 'Ann <b>100%</b> O''Hara' WHERE id = 77;
        CREATE TABLE loans(id INTEGER PRIMARY KEY, title TEXT NOT NULL, person_id INTEGER NOT NULL REFERENCES people(id), note TEXT);
        INSERT INTO loans VALUES (1, 'Dune', 3, NULL);
        """

    static func choices(_ served: DatabaseWriteTestServer, _ query: String, cookie: String?) throws -> (status: Int, choices: [[String: String]]) {
        var headers = [("Accept", "application/json")]
        if let cookie { headers.append(("Cookie", cookie)) }
        let response = try served.get("/loans/-/choose.json?" + query, headers: headers)
        guard response.status == 200 else { return (response.status, []) }
        let object = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any]
        return (200, object?["choices"] as? [[String: String]] ?? [])
    }

    @Test func theNewRowFormSearchesAndItsGetStepKeepsTheOtherValues() throws {
        let served = try DatabaseWriteTestServer(sql: Self.sql)
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let form = try DatabaseWriteFormTests.send(served, "GET", "/loans/-/new", cookie: alice).text
        #expect(form.contains(#"list="field-person_id-choices" autocomplete="off" data-choices="/loans/-/choose.json?_choose=person_id""#), "\(form)")
        #expect(form.contains(#"name="_choose" value="person_id" formmethod="get" formaction="/loans/-/choose" formnovalidate>Choose…"#))
        #expect(!form.contains("Person 0500"), "a thousand rows are not listed")

        // Without a script: "Choose…" sends the form's values by GET; the page lists the matches.
        let step = try DatabaseWriteFormTests.send(
            served, "GET", "/loans/-/choose?title=Le+Guin%27s+%3Cb%3E&person_id=&note=back+soon&_choose=person_id&q=0042", cookie: alice)
        #expect(step.status == 200, "\(step.text.prefix(400))")
        let link = #"href="/loans/-/new?title=Le%20Guin%27s%20%3Cb%3E&amp;note=back%20soon&amp;person_id=42">Person 0042</a>"#
        #expect(step.text.contains(link), "\(step.text)")
        #expect(step.text.contains(#"<input type="hidden" name="title" value="Le Guin&#39;s &lt;b&gt;">"#))
        #expect(step.text.contains("1 match for “0042”."))
        // Back at the form: the key set, the other values kept, the choice named.
        let back = try DatabaseWriteFormTests.send(
            served, "GET", "/loans/-/new?title=Le%20Guin%27s%20%3Cb%3E&note=back%20soon&person_id=42", cookie: alice)
        #expect(back.text.contains(#"value="Le Guin&#39;s &lt;b&gt;""#))
        #expect(back.text.contains(#"value="back soon""#))
        #expect(back.text.contains(#"value="42""#))
        #expect(back.text.contains(#"Now: <span class="field-chosen-title">Person 0042</span>"#))
        let saved = try DatabaseWriteFormTests.send(served, "POST", "/loans/-/new", cookie: alice, form: "title=Earthsea&person_id=42&note=")
        #expect(saved.status == 303, "\(saved.text.prefix(400))")
        #expect(try served.rows("SELECT title, person_id FROM loans WHERE id = 2") == [[.text("Earthsea"), .integer(42)]])
        // A key no row has: 422 on the field, nothing added.
        let refused = try DatabaseWriteFormTests.send(served, "POST", "/loans/-/new", cookie: alice, form: "title=Nowhere&person_id=5000&note=")
        #expect(refused.status == 422)
        #expect(try served.rows("SELECT count(*) FROM loans") == [[.integer(2)]])
    }

    @Test func theScriptsSuggestionsAreBoundAndBounded() throws {
        let served = try DatabaseWriteTestServer(sql: Self.sql)
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let one = try Self.choices(served, "_choose=person_id&q=0042", cookie: alice)
        #expect(one.status == 200)
        #expect(one.choices == [["value": "42", "label": "Person 0042"]])
        // By key too; by any case; at most 50.
        #expect(try Self.choices(served, "_choose=person_id&q=999", cookie: alice).choices.contains { $0["value"] == "999" })
        #expect(try Self.choices(served, "_choose=person_id&q=PERSON%2000", cookie: alice).choices.count == 50)
        // LIKE's own characters and SQL are text to match, nothing more.
        #expect(try Self.choices(served, "_choose=person_id&q=100%25", cookie: alice).choices.map { $0["value"] } == ["77"])
        #expect(try Self.choices(served, "_choose=person_id&q=_", cookie: alice).choices.isEmpty)
        let injection = "q=%27%3B%20DROP%20TABLE%20people%3B%20--"
        #expect(try Self.choices(served, "_choose=person_id&" + injection, cookie: alice) == (200, []))
        #expect(try served.rows("SELECT count(*) FROM people") == [[.integer(1000)]])
        // Hostile or wrong parameters: 400 with a message; no one signed in, or a viewer: refused.
        let long = String(repeating: "a", count: 201)
        #expect(try Self.choices(served, "_choose=person_id&q=" + long, cookie: alice).status == 400)
        #expect(try Self.choices(served, "_choose=person_id&q=a%00b", cookie: alice).status == 400)
        #expect(try Self.choices(served, "_choose=title&q=a", cookie: alice).status == 400)
        #expect(try Self.choices(served, "q=a", cookie: alice).status == 400)
        #expect(try Self.choices(served, "_choose=person_id&q=a", cookie: nil).status == 401)
        let bob = try DatabaseWriteRefusalTests.signIn(served, "bob")
        #expect(try Self.choices(served, "_choose=person_id&q=a", cookie: bob).status == 403)
        #expect(try DatabaseWriteFormTests.send(served, "GET", "/loans/-/choose?_choose=person_id", cookie: bob).status == 403)
    }

    @Test func anEditsGetStepCarriesTheRowsVersion() throws {
        let served = try DatabaseWriteTestServer(sql: Self.sql)
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let version = try DatabaseEditingModeTests.version(served, "/loans/1")
        let form = try DatabaseWriteFormTests.send(served, "GET", "/loans/1/-/edit?version=\(version)", cookie: alice).text
        #expect(form.contains(#"formaction="/loans/1/-/choose" formnovalidate>"#), "\(form)")
        #expect(form.contains(#"<input type="hidden" name="_version" value="\#(version)">"#))
        #expect(form.contains(#"Now: <span class="field-chosen-title">Person 0003</span>"#))
        // Editing mode's forms in place search the same way; "Choose…" goes on in the standalone form.
        let inPlace = try served.get("/loans?editing=1&_edit=1", headers: [("Cookie", alice)]).text
        #expect(inPlace.contains(#"formaction="/loans/1/-/choose" formnovalidate>"#), "\(inPlace)")
        #expect(inPlace.contains(#"<input type="hidden" name="_version" value="\#(version)">"#))
        let insertRow = try served.get("/loans?editing=1&_insert=0", headers: [("Cookie", alice)]).text
        #expect(insertRow.contains(#"data-choices="/loans/-/choose.json?_choose=person_id""#))
        #expect(insertRow.contains(#"formaction="/loans/-/choose" formnovalidate>"#))
        let step = try DatabaseWriteFormTests.send(
            served, "GET", "/loans/1/-/choose?_version=\(version)&title=Dune+Messiah&person_id=3&note=&_choose=person_id&q=Person+0007", cookie: alice
        ).text
        let back = "/loans/1/-/edit?version=\(version)&amp;title=Dune%20Messiah&amp;note=&amp;person_id=7"
        #expect(step.contains(#"href="\#(back)">Person 0007</a>"#), "\(step)")
        let edit = try DatabaseWriteFormTests.send(served, "GET", back.replacingOccurrences(of: "&amp;", with: "&"), cookie: alice)
        #expect(edit.status == 200)
        #expect(edit.text.contains(#"value="Dune Messiah""#) && edit.text.contains(#"value="7""#))
        let saved = try DatabaseWriteFormTests.send(
            served, "POST", "/loans/1/-/edit?version=\(version)", cookie: alice, form: "title=Dune+Messiah&person_id=7&note=")
        #expect(saved.status == 303, "\(saved.text.prefix(400))")
        #expect(try served.rows("SELECT title, person_id FROM loans WHERE id = 1") == [[.text("Dune Messiah"), .integer(7)]])
        #expect(try served.integrityCheck() == [[.text("ok")]])
    }

    /// A form with a secret column offers no GET step: it would put the secret in an address.
    @Test func aFormWithASecretHasNoGetStepAndTheStepCarriesNoSecret() throws {
        var configuration = DatabaseConfiguration()
        var loans = DatabaseConfiguration.Table()
        loans.secret = ["note"]
        configuration.tables["loans"] = loans
        let served = try DatabaseWriteTestServer(sql: Self.sql, configuration: configuration)
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let form = try DatabaseWriteFormTests.send(served, "GET", "/loans/-/new", cookie: alice).text
        #expect(form.contains(#"data-choices="/loans/-/choose.json?_choose=person_id""#), "\(form)")
        #expect(!form.contains("field-choose"))
        // Asked for anyway, the page of matches and the form it leads back to drop the secret.
        let step = try DatabaseWriteFormTests.send(
            served, "GET", "/loans/-/choose?title=T&note=hunter2&_choose=person_id&q=0042", cookie: alice
        ).text
        #expect(step.contains(#"href="/loans/-/new?title=T&amp;person_id=42">"#), "\(step)")
        #expect(!step.contains("hunter2"))
        let back = try DatabaseWriteFormTests.send(served, "GET", "/loans/-/new?note=hunter2", cookie: alice).text
        #expect(!back.contains(#"value="hunter2""#), "\(back.components(separatedBy: "hunter2").first?.suffix(300) ?? "")")
    }
}
