import Cellar
import TableKit

/// `/tasting-notes` and its form, `/tasting-notes/new`: a list the browser adds to through a form
/// of field cells (text, a rating picker, a date, a text area and a switch), its mistakes shown in
/// place, the note kept in memory until the server stops.
public enum TastingNotes {
    /// A note as the form decodes it: each property a field of the same name.
    public struct Note: Codable, Sendable, Equatable {
        public var wine: String
        public var rating: Int
        public var tasted: CalendarDay
        public var notes: String?
        public var buyAgain: Bool
    }

    /// The notes, newest last.
    public final class Store: Sendable {
        private let notes: Locked<[Note]>

        public init(_ notes: [Note] = []) { self.notes = Locked(notes) }
        public var all: [Note] { notes.withLock { $0 } }
        func add(_ note: Note) { notes.withLock { $0.append(note) } }
    }

    static let ratings: [FormField.Option] = [
        .init("5", "Outstanding (5)"), .init("4", "Very good (4)"), .init("3", "Good (3)"), .init("2", "Plain (2)"), .init("1", "Poor (1)"),
    ]

    /// The form, as a static table view of two sections.
    struct NoteForm: FormController {
        var sections: [FormSection] {
            [
                FormSection(
                    header: "The wine",
                    fields: [
                        .text("wine", label: "Wine", isRequired: true, placeholder: "Château Musar 2017", maxLength: 120),
                        .picker("rating", label: "Rating", options: TastingNotes.ratings, isRequired: true),
                        .date("tasted", label: "Tasted on", isRequired: true, help: "The day you opened the bottle."),
                    ]),
                FormSection(
                    header: "Your note", footer: "Notes are kept in memory until the server stops.",
                    fields: [
                        .textArea("notes", label: "Notes", help: "What you smelled and tasted.", maxLength: 2000),
                        .toggle("buyAgain", label: "Buy again"),
                    ]),
            ]
        }
        var submitTitle: String { "Add note" }
    }

    /// Mounts the list and its form on `app`.
    static func install(
        in app: App,
        store: Store = Store([
            Note(
                wine: "Domaine Tempier Bandol 2019", rating: 4, tasted: CalendarDay(year: 2026, month: 11, day: 1) ?? CalendarDay(daysSince1970: 0),
                notes: "Garrigue and dark cherry.", buyAgain: true)
        ])
    ) throws {
        try app.register(TastingNoteCell.self)
        app.list("/tasting-notes", title: "Tasting notes", summary: "Notes added through a form of field cells, with its errors in place") { _ in
            TastingNotesController(notes: store.all)
        }
        app.form("/tasting-notes/new", title: "New tasting note", { _ in NoteForm() }) { (note: Note, _) in
            guard note.tasted <= CalendarDay.today else {
                throw FormValidationError("tasted", "Tasted on cannot be in the future: enter today or an earlier day.")
            }
            store.add(note)
            app.listDidChange(at: "/tasting-notes")
            return .created(at: "/tasting-notes")
        }
    }
}

/// The notes, newest first, under a link to the form.
struct TastingNotesController: TableController {
    let notes: [TastingNotes.Note]

    var contentVersion: String? { "notes-\(notes.count)" }
    func numberOfRows(inSection section: Int) -> Int { notes.count }
    func note(at indexPath: IndexPath) -> TastingNotes.Note { notes[notes.count - 1 - indexPath.row] }
    func identifier(forRowAt indexPath: IndexPath) -> String { String(notes.count - indexPath.row) }
    func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        guard let number = Int(identifier), (1...notes.count).contains(number) else { return nil }
        return IndexPath(row: notes.count - number, section: 0)
    }

    func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        DataCellProvider(for: indexPath, cell: TastingNoteCell.self, data: note(at: indexPath))
    }

    func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { note(at: indexPath) }

    func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
        let note = note(at: indexPath)
        return RowDetail(
            title: note.wine,
            fields: [
                .init("Rating", "\(note.rating) of 5"), .init("Tasted on", note.tasted.description), .init("Notes", note.notes ?? "—"),
                .init("Buy again", note.buyAgain ? "Yes" : "No"),
            ])
    }

    func renderTableHeader(into html: inout HTMLWriter) {
        html.raw("<p class=\"form-actions\"><a class=\"button\" href=\"/tasting-notes/new\">Add a tasting note</a></p>\n")
    }
}

/// A note: the wine, its rating and day, and the note itself.
final class TastingNoteCell: TableViewCell, ConfigurableCell {
    var note: TastingNotes.Note?

    func configure(with note: TastingNotes.Note) { self.note = note }
    override func prepareForReuse() { note = nil }

    override func render(into html: inout HTMLWriter) throws {
        guard let note else { return }
        html.openSelectionLink(selection)
        html.element("span", class: "cell-title", text: note.wine)
        html.raw(" <span class=\"cell-subtitle\">")
        html.text("\(note.rating) of 5 · \(note.tasted)\(note.buyAgain ? " · buy again" : "")")
        html.raw("</span>")
        html.closeSelectionLink(selection)
        if let notes = note.notes { html.element("p", class: "cell-bio", text: notes) }
    }
}
