import TableKit

/// A table's row as a form, made from its schema: an input by each column's declared type,
/// required where the column is NOT NULL without a default, the default said under the field, a
/// foreign key a choice among the referenced table's labels (past ``maximumChoices`` rows, a key
/// found by searching: ``ChoiceSearch``, `App+ChoiceSearch`). Generated columns, a rowid-alias key on insert, the key on edit,
/// BLOB columns and a position column (YAML `order`) are left out: the database or the writer
/// fills them, or the form cannot show them.
struct TableForm: FormController {
    var sections: [FormSection]
    var submitTitle: String

    /// The most rows of a referenced table offered as choices.
    static let maximumChoices = 300

    /// The names the forms keep for themselves, besides every name that begins with `_`
    /// (`_choose`, `_version`, editing mode's `_do`, `_row`, …): the edit form's `version` in its
    /// address and the choose page's search, `q`.
    static let ownNames: Set<String> = ["version", "q"]

    /// The field of the column called `name`: the name itself, or with `__` before it when it is
    /// one of the form's own names or begins with `_` (a column `version` is field `__version`),
    /// so that no field is ever read as one of the form's own parameters.
    static func fieldName(ofColumn name: String) -> String {
        name.hasPrefix("_") || ownNames.contains(name) ? "__" + name : name
    }

    /// The column a field (or a query item) stands for; nil for one of the form's own names.
    static func columnName(ofField name: String) -> String? {
        if name.hasPrefix("__") { return String(name.dropFirst(2)) }
        return name.hasPrefix("_") || ownNames.contains(name) ? nil : name
    }

    /// The columns a form shows for `list`, in order.
    static func columns(of list: TableList, editing: Bool) -> [Int] {
        let schema = list.schema
        let rowIDAlias =
            schema.primaryKey.count == 1 && !schema.withoutRowID
            && schema.column(named: schema.primaryKey[0])?.affinity == .integer
            && schema.column(named: schema.primaryKey[0])?.declaredType.uppercased() == "INTEGER"
        return schema.columns.indices.filter { index in
            let column = schema.columns[index]
            if column.isGenerated || column.affinity == .blob && column.declaredType.uppercased().contains("BLOB") { return false }
            // PostgreSQL's bytes: text typed into a field would be read as bytea's escapes.
            if column.declaredType == "bytea" { return false }
            if editing, list.keyColumns.contains(index) { return false }
            // A position column is the list's order, which moves change, not a field.
            if index == list.positionColumn { return false }
            if !editing, rowIDAlias, column.primaryKeyPosition == 1 { return false }
            return true
        }
    }

    /// - Parameters:
    ///   - values: each column's value as text (a row's, on edit).
    ///   - choices: a foreign-key column's choices (value, label), by column name.
    ///   - searches: a foreign-key column's search, by column name, where its table is too long to list.
    init(
        list: TableList, editing: Bool, values: [String: String], choices: [String: [(String, String)]],
        searches: [String: ChoiceSearch] = [:]
    ) {
        var fields: [FormField] = []
        for index in Self.columns(of: list, editing: editing) {
            let column = list.columns[index]
            let name = Self.fieldName(ofColumn: column.name)
            let required = column.notNull && column.defaultValue == nil
            let help = column.defaultValue.map { "Default: \($0)" } ?? (column.notNull ? nil : "Empty is NULL.")
            let value = values[column.name] ?? ""
            let label = list.labels[index]
            if list.isSecret(index) {
                // A password's field: never filled, and left empty on an edit it keeps the value.
                fields.append(
                    .secure(
                        name, label: label, isRequired: required && !editing,
                        help: editing ? "Secret: leave it empty to keep the current value." : "Secret: it is never shown again.",
                        autocomplete: "new-password"))
                continue
            }
            if let options = choices[column.name] {
                let none = required ? [] : [FormField.Option("", "—")]
                fields.append(
                    .picker(
                        name, label: label, options: none + options.map { FormField.Option($0.0, $0.1) }, isRequired: required,
                        help: help, value: value))
                continue
            }
            if let search = searches[column.name] {
                let searchHelp =
                    search.chooseAction == nil
                    ? "Type its key, or a name to see matches." : "Type its key, or a name to see matches; Choose… lists them."
                fields.append(
                    .search(
                        name, label: label, search: search, isRequired: required, help: help.map { $0 + " " + searchHelp } ?? searchHelp,
                        value: value))
                continue
            }
            switch column.affinity {
            case .integer:
                fields.append(.number(name, label: label, isRequired: required, help: help, value: value))
            case .real, .numeric:
                if column.declaredType.uppercased().contains("DATE") {
                    fields.append(.date(name, label: label, isRequired: required, help: help, value: value))
                } else {
                    fields.append(.number(name, label: label, isRequired: required, allowsDecimals: true, help: help, value: value))
                }
            case .text, .blob:
                fields.append(.text(name, label: label, isRequired: required, help: help, value: value, maxLength: 100_000))
            }
        }
        sections = [FormSection(fields: fields)]
        submitTitle = editing ? "Save" : "Add"
    }
}
