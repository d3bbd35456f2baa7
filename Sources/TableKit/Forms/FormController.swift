/// A form, the way a static table view describes Settings: sections of field cells, each with a
/// header and a footer. Its rows are its fields, each shown by the field cell of its kind
/// (``TextFieldCell``, ``TextAreaCell``, ``SwitchCell``, ``NumberFieldCell``, ``DateFieldCell``,
/// ``PickerCell``, ``SecureFieldCell``, ``SearchFieldCell``); its row identifiers are the fields' names.
///
/// Only ``sections`` is required: the table's rows, headers, footers and cells follow from it.
///
/// ```swift
/// struct TastingNoteForm: FormController {
///     var sections: [FormSection] {
///         [FormSection(header: "The wine", fields: [
///             .text("wine", label: "Wine", isRequired: true),
///             .picker("rating", label: "Rating", options: [.init("5", "★★★★★"), .init("4", "★★★★")], isRequired: true),
///         ])]
///     }
/// }
/// ```
///
/// It is a ``TableController``: it renders through the same walk and cells as a list. Cellar
/// serves it as a page that posts back to itself (`app.form`), decodes what comes back and shows
/// the form again with each field's error.
public protocol FormController: TableController {
    /// The form's sections, each field with its current value.
    var sections: [FormSection] { get }
    /// The submit button's text; "Save" unless overridden.
    var submitTitle: String { get }
}

extension FormController {
    public var submitTitle: String { "Save" }
    public var numberOfSections: Int { sections.count }
    public func numberOfRows(inSection section: Int) -> Int { sections[section].fields.count }
    public func titleForHeader(inSection section: Int) -> String? { sections[section].header }
    public func titleForFooter(inSection section: Int) -> String? { sections[section].footer }
    public func identifier(forRowAt indexPath: IndexPath) -> String { field(at: indexPath).name }

    /// The field of a row.
    public func field(at indexPath: IndexPath) -> FormField { sections[indexPath.section].fields[indexPath.row] }

    /// Every field, in the order of the page.
    public var fields: [FormField] { sections.flatMap(\.fields) }

    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let field = field(at: indexPath)
        return switch field.kind {
        case .text: DataCellProvider(for: indexPath, cell: TextFieldCell.self, data: field)
        case .textArea: DataCellProvider(for: indexPath, cell: TextAreaCell.self, data: field)
        case .number: DataCellProvider(for: indexPath, cell: NumberFieldCell.self, data: field)
        case .date: DataCellProvider(for: indexPath, cell: DateFieldCell.self, data: field)
        case .toggle: DataCellProvider(for: indexPath, cell: SwitchCell.self, data: field)
        case .picker: DataCellProvider(for: indexPath, cell: PickerCell.self, data: field)
        case .secure: DataCellProvider(for: indexPath, cell: SecureFieldCell.self, data: field)
        case .search: DataCellProvider(for: indexPath, cell: SearchFieldCell.self, data: field)
        }
    }
}

/// A form as a value: sections and a submit title. What Cellar renders, from a ``FormController``'s
/// sections with the values sent and the errors found (``filled(values:errors:)``).
public struct FormTable: FormController, Sendable {
    public var sections: [FormSection]
    public var submitTitle: String

    public init(sections: [FormSection], submitTitle: String = "Save") {
        self.sections = sections
        self.submitTitle = submitTitle
    }

    /// The form of `controller`, as it describes itself.
    public init(_ controller: any FormController) {
        self.init(sections: controller.sections, submitTitle: controller.submitTitle)
    }

    /// The same form showing `values` (by field name) in place of its own and `errors` (by field
    /// name) on their fields. A secure field shows nothing sent: a password is not written into a page.
    public func filled(values: [String: String], errors: [String: String]) -> FormTable {
        var form = self
        for section in form.sections.indices {
            for row in form.sections[section].fields.indices {
                var field = form.sections[section].fields[row]
                if field.kind == .secure {
                    field.value = ""
                } else if let value = values[field.name] {
                    field.value = value
                }
                field.error = errors[field.name]
                form.sections[section].fields[row] = field
            }
        }
        return form
    }
}
