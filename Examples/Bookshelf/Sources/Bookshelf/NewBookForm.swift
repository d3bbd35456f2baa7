// The form at /books/new: a static table view of field cells, decoded into a NewBook. No HTML:
// the field cells write the controls, their labels and errors.
import Cellar
import TableKit

/// What the form sends, each property a field of the same name.
struct NewBook: Decodable {
    let title: String, author: String, year: Int, isRead: Bool
}

struct NewBookForm: FormController {
    /// The book edited in place in the list, or nil for a new one.
    var book: Book? = nil
    var isRead = false
    var submitTitle: String { book == nil ? "Add book" : "Save" }
    var sections: [FormSection] {
        [
            FormSection(
                header: "The book", footer: "A book not read yet goes on the Reading shelf.",
                fields: [
                    .text("title", label: "Title", isRequired: true, value: book?.title ?? "", maxLength: 200),
                    .text("author", label: "Author", isRequired: true, value: book?.author ?? "", maxLength: 200),
                    .number(
                        "year", label: "Published", isRequired: true, minimum: -3000, maximum: 2100, placeholder: "1974",
                        value: book.map { String($0.year) } ?? ""),
                    .toggle("isRead", label: "Read already", isOn: isRead),
                ])
        ]
    }
}
