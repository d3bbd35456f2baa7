import TableKit
import Testing

/// Every error says what to fix, in words a user can act on.
@Suite struct TableKitErrorTests {
    @Test func messages() throws {
        let template = try #require(#expect(throws: PrototypeTemplateError.self) { try PrototypeTemplate("x\n    {{a") })
        let cases: [(TableKitError, String)] = [
            (
                .unregisteredIdentifier("GhostCell", registered: ["A", "B"]),
                "No cell is registered for reuse identifier 'GhostCell' (registered: A, B). Have you registered the cell? "
                    + "Use register(_:) for a class cell, or add Public/prototypes/GhostCell.html."
            ),
            (
                .unregisteredIdentifier("GhostCell", registered: []),
                "No cell is registered for reuse identifier 'GhostCell' (nothing is registered). Have you registered the cell? "
                    + "Use register(_:) for a class cell, or add Public/prototypes/GhostCell.html."
            ),
            (
                .typeMismatch(identifier: "Row", registered: "M.A", requested: "M.B"),
                "The cell registered for reuse identifier 'Row' is M.A, not M.B."
            ),
            (
                .duplicateIdentifier("Row", existing: "class M.A", new: "a prototype template"),
                "Reuse identifier 'Row' is already registered for class M.A; it cannot also name a prototype template."
            ),
            (.invalidIdentifier("a b"), "'a b' is not a valid reuse identifier: use letters, digits, '_' and '-'."),
            (
                .invalidPrototype(identifier: "NoteCell", file: "/p/NoteCell.html", error: template),
                "Prototype 'NoteCell' (/p/NoteCell.html) does not compile: line 2, column 5: unclosed tag: missing }}"
            ),
            (
                .invalidPrototype(identifier: "NoteCell", file: nil, error: template),
                "Prototype 'NoteCell' does not compile: line 2, column 5: unclosed tag: missing }}"
            ),
            (
                .unreadablePrototypes(path: "/p", reason: "the folder cannot be listed"),
                "Cannot read prototype cells from /p: the folder cannot be listed"
            ),
            (.rowOutOfRange(IndexPath(row: 3, section: 1)), "No row at index path [1, 3]."),
        ]
        for (error, message) in cases {
            #expect(error.description == message)
            #expect(String(describing: error) == message)
        }
    }
}
