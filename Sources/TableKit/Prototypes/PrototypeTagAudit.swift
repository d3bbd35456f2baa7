/// One tag of a prototype template that no audited row's data answered.
///
/// Most often a typo: `{{titel}}` renders as nothing, row after row, and nothing else says so.
public struct PrototypeTagWarning: Sendable, Equatable, CustomStringConvertible {
    /// The prototype's reuse identifier.
    public let identifier: String
    /// The template's file, when it was registered from one.
    public let file: String?
    /// The line of the tag's first occurrence, 1-based.
    public let line: Int
    /// The column of the tag's first occurrence, 1-based, counting characters.
    public let column: Int
    /// The name inside `{{ }}`, such as `titel` (without a section's `#` or `^`).
    public let tag: String

    /// Where and what, as a compiler says it:
    /// `Public/prototypes/BookCell.html:3:22: {{titel}} is answered by no row's data (BookCell)`.
    /// A template registered from a string has no file, and its identifier stands in for one.
    public var description: String {
        "\(file ?? identifier):\(line):\(column): {{\(tag)}} is answered by no row's data (\(identifier))"
    }
}

/// Checks, for the rows it is shown, which tags of their prototype templates the rows' data answers.
///
/// A tag a row's data does not know renders as nothing, which is right for a value a row may
/// lack and wrong for a misspelt name. At start-up, show the audit a few rows of each list (their
/// providers), then read its ``warnings``: the tags no row answered. A tag is answered when
/// some recorded row's ``PrototypeData/prototypeValue(forKey:)`` is not `.missing` for it, or
/// when the table answers it itself (`{{id}}` and `{{href}}`). Section tags count: a
/// `{{#name}}` answered by `.flag(false)` is answered, since the data knows the name.
///
/// ```swift
/// let audit = PrototypeTagAudit(registry: registry)
/// for row in 0..<min(controller.numberOfRows(inSection: 0), 20) {
///     audit.record(controller.cellProvider(forRowAt: IndexPath(row: row, section: 0)))
/// }
/// for warning in audit.warnings { print("warning: \(warning)") }
/// ```
///
/// The audit only reads what rows hand it: it is start-up work, and rendering never consults it.
/// It is not thread-safe; use one from one thread.
public final class PrototypeTagAudit {
    /// What the audit knows of one prototype that a recorded row used.
    private struct UsedPrototype {
        let identifier: String
        let template: PrototypeTemplate
        let file: String?
        /// For each of the template's keys, whether some recorded row answered it.
        var answered: [Bool]
    }

    private let registry: ReuseRegistry
    private var used: [String: UsedPrototype] = [:]

    public init(registry: ReuseRegistry) {
        self.registry = registry
    }

    /// Notes the tags a row's data answers, when `provider` is a prototype provider whose
    /// identifier is registered as a prototype; other providers are ignored.
    ///
    /// A `CellData` row whose identifier names a prototype, and whose data adopts
    /// ``PrototypeData``, is a prototype row too, and is recorded as one.
    public func record(_ provider: DataCellProvider) {
        guard let data = provider.prototypeData else { return }
        let identifier = provider.reuseIdentifier
        var prototype: UsedPrototype
        if let seen = used[identifier] {
            prototype = seen
        } else if let registered = registry.prototype(identifier) {
            prototype = UsedPrototype(
                identifier: identifier, template: registered.template, file: registered.file,
                answered: Array(repeating: false, count: registered.template.keys.count))
        } else {
            return
        }
        for (index, key) in prototype.template.keys.enumerated() where !prototype.answered[index] {
            prototype.answered[index] = Self.answers(data, key)
        }
        used[identifier] = prototype
    }

    /// Whether a row with `data` gives `key` a value: the table's own names always have one.
    private static func answers(_ data: any PrototypeData, _ key: String) -> Bool {
        if PrototypeTemplate.namesFromTheTable.contains(key) { return true }
        if case .missing = data.prototypeValue(forKey: key) { return false }
        return true
    }

    /// Tags of the templates recorded so far that no recorded row answered, in file/line/column
    /// order (templates registered from strings, which have no file, first, by identifier).
    public var warnings: [PrototypeTagWarning] {
        var warnings: [PrototypeTagWarning] = []
        for prototype in used.values {
            for (index, key) in prototype.template.keys.enumerated() where !prototype.answered[index] {
                let position = prototype.template.keyPositions[index]
                warnings.append(
                    PrototypeTagWarning(
                        identifier: prototype.identifier, file: prototype.file, line: position.line, column: position.column, tag: key))
            }
        }
        return warnings.sorted { first, second in
            (first.file ?? "", first.identifier, first.line, first.column) < (second.file ?? "", second.identifier, second.line, second.column)
        }
    }

    /// Identifiers of registered prototypes that no recorded row used (so their tags were not
    /// checked), sorted.
    public var uncheckedPrototypes: [String] {
        registry.prototypeIdentifiers.filter { used[$0] == nil }
    }
}
