import Cellar
import TableKit

// The Swift of Cellar.docc/Forms.md, verbatim but for the `FormsArticle` namespace (in which the
// article's `let notes` is `static`) and `addForm(to:)`, which gives the article's call its `app`.
// FormsArticleTests serves it, and checks that every line of the article's Swift is here.
enum FormsArticle {
    /// What the form sends: each stored property a field of the same name.
    struct TastingNote: Codable, Sendable {
        var wine: String
        var rating: Int
        var tasted: CalendarDay
        var notes: String?
        var buyAgain: Bool
    }

    /// The form: sections of field cells, as a static table view.
    struct TastingNoteForm: FormController {
        var submitTitle: String { "Add note" }
        var sections: [FormSection] {
            [
                FormSection(
                    header: "The wine",
                    fields: [
                        .text("wine", label: "Wine", isRequired: true, placeholder: "Château Musar 2017"),
                        .picker(
                            "rating", label: "Rating", options: [.init("5", "Outstanding"), .init("4", "Very good"), .init("3", "Good")],
                            isRequired: true),
                        .date("tasted", label: "Tasted on", isRequired: true),
                    ]),
                FormSection(
                    header: "Your note", footer: "Kept in memory until the server stops.",
                    fields: [
                        .textArea("notes", label: "Notes", help: "What you smelled and tasted."),
                        .toggle("buyAgain", label: "Buy again"),
                    ]),
            ]
        }
    }

    static let notes = Locked<[TastingNote]>([])

    static func addForm(to app: App) {
        app.form("/notes/new", title: "New tasting note", { _ in TastingNoteForm() }) { (note: TastingNote, request) in
            guard note.tasted <= CalendarDay.today else {
                throw FormValidationError("tasted", "Tasted on cannot be in the future.")
            }
            notes.withLock { $0.append(note) }
            app.listDidChange(at: "/notes")  // its watchers see the new row
            return .created(at: "/notes")
        }
    }
}
