/// A condition the filter form offers (`=`, `before`, `contains (any case)`…) and the URL operator
/// it stands for (`column__op=value`), grouped by the kind of value a column declares: a number
/// is not searched for words, a text not compared by size, a date is before or after another.
///
/// Without JavaScript the form shows each kind's conditions as an `<optgroup>` and the server
/// refuses a condition that does not fit the chosen column (a 400 that lists the ones that do);
/// the site's script narrows the list to the chosen column's kind. The URL itself still takes
/// every operator on every column, as it always did.
struct FilterOperator: Equatable, Sendable {
    /// What a column holds, as far as filtering goes: judged from its declared type.
    enum Kind: String, CaseIterable, Sendable {
        case number, text, date, other

        init(_ column: ColumnSchema) {
            // Before the affinity: SQLite gives `DATE` and `DATETIME` numeric affinity.
            if column.holdsDates {
                self = .date
                return
            }
            switch column.affinity {
            case .integer, .real, .numeric: self = .number
            case .text: self = .text
            case .blob: self = .other
            }
        }

        /// The `<optgroup>`'s label.
        var groupLabel: String {
            switch self {
            case .number: "Numbers"
            case .text: "Text"
            case .date: "Dates and times"
            case .other: "Other values"
            }
        }

        /// "holds numbers", for the message that refuses a condition.
        var holds: String {
            switch self {
            case .number: "holds numbers"
            case .text: "holds text"
            case .date: "holds dates or times"
            case .other: "holds values of any type"
            }
        }
    }

    /// The form's value: a URL operator (``TableQuery/operators``), or `notnull`, which the form
    /// sends for `__isnull=0`.
    let name: String
    /// How the form and a chip read it.
    let label: String

    static let equal = FilterOperator(name: "exact", label: "=")
    static let notEqual = FilterOperator(name: "not", label: "≠")
    static let containsAnyCase = FilterOperator(name: "icontains", label: "contains (any case)")
    static let contains = FilterOperator(name: "contains", label: "contains")
    static let startsWith = FilterOperator(name: "startswith", label: "starts with")
    static let isNull = FilterOperator(name: "isnull", label: "is NULL")
    static let notNull = FilterOperator(name: "notnull", label: "is not NULL")
    static let comparisons = [
        FilterOperator(name: "lt", label: "<"), FilterOperator(name: "lte", label: "≤"), FilterOperator(name: "gt", label: ">"),
        FilterOperator(name: "gte", label: "≥"),
    ]

    /// The conditions a column of `kind` is offered, in the form's order.
    static func offered(for kind: Kind) -> [FilterOperator] {
        switch kind {
        case .number: [equal, notEqual] + comparisons + [isNull, notNull]
        case .text: [containsAnyCase, contains, equal, notEqual, startsWith, isNull, notNull]
        case .date:
            [
                FilterOperator(name: "exact", label: "on"), FilterOperator(name: "lt", label: "before"), FilterOperator(name: "gt", label: "after"),
                FilterOperator(name: "lte", label: "on or before"), FilterOperator(name: "gte", label: "on or after"), isNull, notNull,
            ]
        case .other: [equal, notEqual] + comparisons + [containsAnyCase, contains, startsWith, isNull, notNull]
        }
    }

    /// How a chip reads the URL operator `name` on a column of `kind`: "before" for a date's
    /// `lt`, "<" for a number's; the operator itself when no kind offers it.
    static func label(of name: String, for kind: Kind) -> String {
        if let offered = offered(for: kind).first(where: { $0.name == name }) { return offered.label }
        return Kind.allCases.lazy.compactMap { offered(for: $0).first { $0.name == name }?.label }.first ?? name
    }
}
