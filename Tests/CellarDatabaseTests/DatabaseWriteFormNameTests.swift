import Cellar
import Foundation
import HTTPTestSupport
import Testing

@testable import CellarDatabase

/// Columns named as the forms' own parameters — the edit's `version`, the choose page's `q` and
/// `_choose`, the carried `_version` — and `editing`, `choose`: each has a field of its own
/// (`__version`, …), so the no-script GET step keeps every value and a save writes each.
@Suite struct DatabaseWriteFormNameTests {
    static let sql =
        DatabaseWriteChoiceSearchTests.sql + """
            CREATE TABLE marks(
                id INTEGER PRIMARY KEY, version TEXT, editing TEXT, _version TEXT, _choose TEXT, q TEXT, choose TEXT,
                person_id INTEGER REFERENCES people(id));
            INSERT INTO marks VALUES (1, 'v0', 'e0', 'uv0', 'uc0', 'q0', 'c0', 3);
            """

    static let columns = ["version", "editing", "_version", "_choose", "q", "choose"]

    @Test func eachColumnHasAFieldNoParameterOfTheFormTakes() {
        #expect(Self.columns.map(TableForm.fieldName(ofColumn:)) == ["__version", "editing", "___version", "___choose", "__q", "choose"])
        for name in Self.columns + ["__x", "person_id"] {
            #expect(TableForm.columnName(ofField: TableForm.fieldName(ofColumn: name)) == name)
        }
        for own in ["version", "q", "_version", "_choose", "_do"] { #expect(TableForm.columnName(ofField: own) == nil) }
    }

    @Test func anEditsGetStepKeepsColumnsNamedAsTheFormsParameters() throws {
        let served = try DatabaseWriteTestServer(sql: Self.sql)
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let version = try DatabaseEditingModeTests.version(served, "/marks/1")
        let form = try DatabaseWriteFormTests.send(served, "GET", "/marks/1/-/edit?version=\(version)", cookie: alice)
        #expect(form.status == 200, "\(form.text.prefix(400))")
        for field in ["__version", "editing", "___version", "___choose", "__q", "choose"] {
            #expect(form.text.contains(#"name="\#(field)""#), "\(field)")
        }
        #expect(form.text.contains(#"<input type="hidden" name="_version" value="\#(version)">"#))

        // "Choose…" without a script: the browser sends every field, the button and the version.
        let step = try DatabaseWriteFormTests.send(
            served, "GET",
            "/marks/1/-/choose?__version=v1&editing=e1&___version=uv1&___choose=uc1&__q=q1&choose=c1&person_id=3&_version=\(version)"
                + "&_choose=person_id&q=Person+0007",
            cookie: alice)
        #expect(step.status == 200, "\(step.text.prefix(400))")
        #expect(step.text.contains("1 match for “Person 0007”."), "\(step.text)")
        let back =
            "/marks/1/-/edit?version=\(version)&amp;__version=v1&amp;editing=e1&amp;___version=uv1&amp;___choose=uc1&amp;__q=q1&amp;choose=c1"
            + "&amp;person_id=7"
        #expect(step.text.contains(#"href="\#(back)">Person 0007</a>"#), "\(step.text)")

        // Back at the form: each value where it was typed, the version the row's.
        let edit = try DatabaseWriteFormTests.send(served, "GET", back.replacingOccurrences(of: "&amp;", with: "&"), cookie: alice)
        #expect(edit.status == 200, "\(edit.text.prefix(400))")
        for value in ["v1", "e1", "uv1", "uc1", "q1", "c1", "7"] { #expect(edit.text.contains(#"value="\#(value)""#), "\(value)") }
        #expect(edit.text.contains(#"<input type="hidden" name="_version" value="\#(version)">"#))

        let saved = try DatabaseWriteFormTests.send(
            served, "POST", "/marks/1/-/edit?version=\(version)", cookie: alice,
            form: "__version=v2&editing=e2&___version=uv2&___choose=uc2&__q=q2&choose=c2&person_id=7&_version=\(version)")
        #expect(saved.status == 303, "\(saved.text.prefix(400))")
        #expect(
            try served.rows("SELECT version, editing, _version, _choose, q, choose, person_id FROM marks WHERE id = 1")
                == [["v2", "e2", "uv2", "uc2", "q2", "c2"].map { DatabaseValue.text($0) } + [.integer(7)]])
    }

    @Test func aNewRowsColumnsNamedAsTheFormsParametersAreWritten() throws {
        let served = try DatabaseWriteTestServer(sql: Self.sql)
        let alice = try DatabaseWriteRefusalTests.signIn(served, "alice")
        let step = try DatabaseWriteFormTests.send(
            served, "GET", "/marks/-/choose?__version=n1&__q=nq&___choose=nc&_choose=person_id&q=Person+0042", cookie: alice)
        #expect(step.text.contains(#"href="/marks/-/new?__version=n1&amp;__q=nq&amp;___choose=nc&amp;person_id=42">"#), "\(step.text)")
        let saved = try DatabaseWriteFormTests.send(
            served, "POST", "/marks/-/new", cookie: alice, form: "__version=n1&editing=ne&___version=nu&___choose=nc&__q=nq&choose=nch&person_id=42")
        #expect(saved.status == 303, "\(saved.text.prefix(400))")
        #expect(
            try served.rows("SELECT version, editing, _version, _choose, q, choose, person_id FROM marks WHERE id = 2")
                == [["n1", "ne", "nu", "nc", "nq", "nch"].map { DatabaseValue.text($0) } + [.integer(42)]])
        // A value the column refuses is told on its own field.
        let refused = try DatabaseWriteFormTests.send(served, "POST", "/marks/-/new", cookie: alice, form: "__version=x&person_id=5000")
        #expect(refused.status == 422)
        #expect(refused.text.contains(#"id="field-person_id-error""#), "\(refused.text)")
    }
}
