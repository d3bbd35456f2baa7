/// A value a prototype template can show: text, a number, a flag, or nothing.
public enum PrototypeValue: Sendable {
    case text(String)
    case number(Int)
    case flag(Bool)
    /// A row's detail link, written escaped without building a string.
    case selection(RowSelection)
    case missing

    /// Whether a `{{#name}}` section shows: present, non-empty, non-zero and not `false`.
    public var isTruthy: Bool {
        switch self {
        case .text(let text): !text.isEmpty
        case .number(let number): number != 0
        case .flag(let flag): flag
        case .selection: true
        case .missing: false
        }
    }

    func write(into html: inout HTMLWriter) {
        switch self {
        case .text(let text): html.text(text)
        case .number(let number): html.text(number)
        case .flag(let flag): html.raw(flag ? "true" : "false")
        case .selection(let selection): selection.write(into: &html)
        case .missing: break
        }
    }
}

/// A row's data, as a prototype template reads it: one value per name.
///
/// ```swift
/// extension Person: PrototypeData {
///     func prototypeValue(forKey key: String) -> PrototypeValue {
///         switch key {
///         case "name": .text(name)
///         case "role": .text(role.title)
///         default: .missing
///         }
///     }
/// }
/// ```
///
/// The table adds `id` (the row's identifier) and `href` (its detail link) before asking the data.
public protocol PrototypeData {
    func prototypeValue(forKey key: String) -> PrototypeValue

    /// Writes the value for `key` into `html`, escaped: what `prototypeValue(forKey:)` gives,
    /// written as a template writes it.
    ///
    /// The default asks ``prototypeValue(forKey:)``. A type on a hot list can write its texts
    /// directly instead, which saves making (and retaining the string of) a ``PrototypeValue``
    /// for every value of every row; it must write what its `prototypeValue(forKey:)` gives.
    func writePrototypeValue(forKey key: String, into html: inout HTMLWriter)
}

extension PrototypeData {
    public func writePrototypeValue(forKey key: String, into html: inout HTMLWriter) {
        prototypeValue(forKey: key).write(into: &html)
    }
}

extension Dictionary: PrototypeData where Key == String, Value == String {
    public func prototypeValue(forKey key: String) -> PrototypeValue {
        self[key].map(PrototypeValue.text) ?? .missing
    }
}
