import TableKit
import Testing

@Suite struct EditableTableControllerTests {
    /// Only the required commit: everything else is UIKit's default.
    private struct MinimalEditable: EditableTableController {
        var rows: [Int]
        var numberOfSections: Int { rows.count }
        func numberOfRows(inSection section: Int) -> Int { rows[section] }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { DataCellProvider(for: indexPath) { (_: TitleCell) in } }
        func commit(_ editingStyle: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws {}
    }

    /// Keeps section 0's first row where it is, as a pinned row would be.
    private struct PinnedFirstRow: EditableTableController {
        func numberOfRows(inSection section: Int) -> Int { 3 }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider { DataCellProvider(for: indexPath) { (_: TitleCell) in } }
        func commit(_ editingStyle: EditingStyle, forRowAt indexPath: IndexPath, context: EditingContext) throws {}
        func targetIndexPathForMove(from source: IndexPath, to proposed: IndexPath) -> IndexPath {
            proposed.row == 0 ? source : proposed
        }
        func leadingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
            SwipeActionsConfiguration(actions: [ContextualAction(style: .normal, title: "Pin") { _ in }])
        }
        func trailingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
            SwipeActionsConfiguration(actions: [ContextualAction(style: .destructive, title: "Delete", identifier: "remove") { _ in }])
        }
    }

    private struct NoteForm: FormController {
        var sections: [FormSection] {
            [FormSection(fields: [.text("name", label: "Name", value: "Barolo"), .toggle("drunk", label: "Drunk", isOn: true)])]
        }
    }

    private struct Note: Decodable, Equatable {
        let name: String
    }

    @Test func defaultsFollowUIKit() throws {
        let controller = MinimalEditable(rows: [2])
        let first = IndexPath(row: 0, section: 0)
        #expect(controller.canEditRow(at: first))
        #expect(controller.editingStyle(forRowAt: first) == .delete)
        #expect(!controller.canMoveRow(at: first))
        #expect(controller.editingForm(forRowAt: first) == nil)
        #expect(controller.insertForm(inSection: 0) == nil)
        #expect(controller.contextualActions(forRowAt: first).isEmpty)
        #expect(controller.version(forRowAt: first) == nil)
        #expect(controller.targetIndexPathForMove(from: first, to: IndexPath(row: 1, section: 0)) == IndexPath(row: 1, section: 0))
        #expect(throws: EditingError("This row cannot be moved.")) {
            try controller.moveRow(at: first, to: IndexPath(row: 1, section: 0), context: EditingContext(actor: nil))
        }
        #expect(throws: EditingError("This row cannot be edited.")) {
            try controller.commitEdit(forRowAt: first, context: EditingContext(actor: nil))
        }
    }

    @Test func moveUpAndDownStepAlongASectionAndAcrossItsEdges() {
        let controller = MinimalEditable(rows: [2, 0, 3])
        #expect(controller.indexPath(movingRowAt: IndexPath(row: 0, section: 0), by: -1) == nil)
        #expect(controller.indexPath(movingRowAt: IndexPath(row: 0, section: 0), by: 1) == IndexPath(row: 1, section: 0))
        #expect(controller.indexPath(movingRowAt: IndexPath(row: 1, section: 0), by: -1) == IndexPath(row: 0, section: 0))
        // Past a section's end: the start of the next section, even an empty one.
        #expect(controller.indexPath(movingRowAt: IndexPath(row: 1, section: 0), by: 1) == IndexPath(row: 0, section: 1))
        // Past a section's start: the end of the one before.
        #expect(controller.indexPath(movingRowAt: IndexPath(row: 0, section: 2), by: -1) == IndexPath(row: 0, section: 1))
        #expect(controller.indexPath(movingRowAt: IndexPath(row: 2, section: 2), by: 1) == nil)
    }

    @Test func theControllerCanKeepARowWhereItIs() {
        let controller = PinnedFirstRow()
        #expect(controller.indexPath(movingRowAt: IndexPath(row: 1, section: 0), by: -1) == nil)
        #expect(controller.indexPath(movingRowAt: IndexPath(row: 1, section: 0), by: 1) == IndexPath(row: 2, section: 0))
    }

    @Test func actionsComeLeadingFirstEachWithAStableName() {
        let actions = PinnedFirstRow().contextualActions(forRowAt: IndexPath(row: 1, section: 0))
        #expect(actions.map(\.title) == ["Pin", "Delete"])
        #expect(actions.map(\.identifier) == ["Pin", "remove"])
        #expect(actions.map(\.style) == [.normal, .destructive])
    }

    @Test func aFormsValuesAreWhatUndoInsertsAgain() {
        #expect(NoteForm().values == ["name": "Barolo", "drunk": "1"])
    }

    @Test func aContextWithoutAFormDecodesNothing() throws {
        let context = EditingContext(actor: "alice")
        #expect(context.actor == "alice")
        #expect(!context.isUndo)
        #expect(throws: DecodingError.self) { try context.decode(Note.self) }
    }
}
