import Cellar
import HTTPTestSupport
import TableKit
import Testing

/// Editing mode where the permissions name accounts (what each actor sees and may post), and in
/// the columns layout (the controls in a cell of their own, a row's form in one `<td colspan>`).
@Suite struct EditingSignInAndColumnsTests {
    /// A name in the one column of the columns layout.
    final class NameColumnCell: TableViewCell, ConfigurableCell {
        var name = ""
        func configure(with name: String) { self.name = name }
        override func render(into html: inout HTMLWriter) throws {
            html.raw("<td>")
            html.text(name)
            html.raw("</td>")
        }
    }

    struct ColumnsController: EditableTableController {
        var style: TableStyle { .columns([TableColumn("Name")]) }
        func numberOfRows(inSection section: Int) -> Int { 2 }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(for: indexPath, cell: NameColumnCell.self, data: "name \(indexPath.row)")
        }
        func commit(_ editingStyle: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws {}
        func editingForm(forRowAt indexPath: IndexPath) -> (any FormController)? {
            FormTable(sections: [FormSection(fields: [.text("name", label: "Name", value: "name \(indexPath.row)")])])
        }
    }

    static func server() throws -> TestServer {
        try SignInFixture.server { app in
            try app.register(NameColumnCell.self)
            app.list("/grid", paging: .unpaged, hasDetail: false) { _ in ColumnsController() }
            app.list("/cellar-notes", paging: .unpaged, hasDetail: false) { _ in EditingTests.GrumpyController() }
            app.access.permissions.grant(.delete, on: "/cellar-notes", to: "alice")
            app.access.permissions.grant(.update, on: "/grid", to: Permissions.signedIn)
        }
    }

    @Test func onlyTheActorsOwnActionsAreShownAndAllowed() throws {
        let server = try Self.server()
        let alice = try server.signIn("alice", SignInFixture.alicePassword)
        let bob = try server.signIn("bob", SignInFixture.bobPassword)
        // Anonymous and bob may not: no Edit, no controls, and a POST is 401 or 403.
        #expect(!(try server.get("/cellar-notes").text.contains("editing-start")))
        #expect(!(try server.get("/cellar-notes?editing=1", headers: [("Cookie", bob)]).text.contains("editing-buttons")))
        let anonymous = try server.post("/cellar-notes/-/editing", form: "_do=delete&_row=0&_version=x")
        #expect(anonymous.status == 401)
        let refused = try server.post("/cellar-notes/-/editing", form: "_do=delete&_row=0&_version=x", headers: [("Cookie", bob)])
        #expect(refused.status == 403)
        // alice may delete (not update: no swipe action buttons); her delete reaches the commit, which refuses with its message.
        let page = try server.get("/cellar-notes?editing=1", headers: [("Cookie", alice)]).text
        #expect(page.contains(#"value="delete" class="button editing-delete">Delete</button>"#))
        #expect(!page.contains("action:open"))
        let start = try #require(page.range(of: #"name="_version" value=""#))
        let version = String(page[start.upperBound...].prefix { $0 != "\"" })
        let kept = try server.post("/cellar-notes/-/editing", form: "_do=delete&_row=0&_version=\(version)", headers: [("Cookie", alice)])
        #expect(kept.status == 422)
        #expect(kept.text.contains("Bottles of this kind stay on the list."))
        let action = try server.post("/cellar-notes/-/editing", form: "_do=action:open&_row=0&_version=\(version)", headers: [("Cookie", alice)])
        #expect(action.status == 403)
    }

    @Test func theColumnsLayoutKeepsEachRowOneTableRow() throws {
        let server = try Self.server()
        let bob = try server.signIn("bob", SignInFixture.bobPassword)
        let page = try server.get("/grid?editing=1", headers: [("Cookie", bob)]).text
        #expect(page.contains(#"<td>name 0</td><td class="editing-cell"><div class="editing-controls"><a class="button editing-edit""#))
        #expect(page.contains("</a></div></td></tr>\n"))
        // The controls' column has its header, so that every row has as many cells as the header.
        #expect(page.contains(#"<th scope="col" class="editing-cell"><span class="visually-hidden">Changes</span></th></tr></thead>"#))
        #expect(try !server.get("/grid", headers: [("Cookie", bob)]).text.contains(#"class="editing-cell""#))
        let open = try server.get("/grid?editing=1&_edit=1", headers: [("Cookie", bob)]).text
        #expect(open.contains(#"<tr class="cell editing-open" id="row-1"><td colspan="2"><form class="form editing-form""#))
        #expect(open.contains(#"value="name 1""#))
    }
}
