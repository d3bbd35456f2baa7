import ByteWriters

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
/// A type on a hot list can also name its values by number: ``prototypeSlots`` lists the names,
/// and ``writePrototypeValue(slot:into:)`` writes the one at a slot. The three ways of reading a
/// value must agree.
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

    /// The names this type writes by number (``writePrototypeValue(slot:into:)``), each at its
    /// slot. A prototype cell matches its template's `{{name}}` tags against them once per data
    /// type, and then writes each value by its slot: no name compared per row. Empty by default
    /// (every value is written by name).
    static var prototypeSlots: [String] { get }

    /// Writes the value named `prototypeSlots[slot]`: exactly what
    /// ``writePrototypeValue(forKey:into:)`` writes for that name.
    func writePrototypeValue(slot: Int, into html: inout HTMLWriter)
}

extension PrototypeData {
    public func writePrototypeValue(forKey key: String, into html: inout HTMLWriter) {
        prototypeValue(forKey: key).write(into: &html)
    }

    public static var prototypeSlots: [String] { [] }

    public func writePrototypeValue(slot: Int, into html: inout HTMLWriter) {
        writePrototypeValue(forKey: Self.prototypeSlots[slot], into: &html)
    }
}

extension Dictionary: PrototypeData where Key == String, Value == String {
    public func prototypeValue(forKey key: String) -> PrototypeValue {
        self[key].map(PrototypeValue.text) ?? .missing
    }
}
