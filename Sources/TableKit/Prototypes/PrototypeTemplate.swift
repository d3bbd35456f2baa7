import ByteWriters

/// An HTML template for a prototype cell, compiled once at start-up into byte segments and slots.
///
/// Prototype cells are the web's storyboard prototypes: `Public/prototypes/SubtitleCell.html`
/// holds the markup of a `SubtitleCell` row, and rows fill it from their data. The syntax is a
/// strict subset of Mustache:
///
/// | syntax | meaning |
/// | --- | --- |
/// | `{{name}}` | the row's `name`, HTML-escaped |
/// | `{{#name}}…{{/name}}` | the enclosed part, when `name` is present, non-empty, non-zero and not `false` |
/// | `{{^name}}…{{/name}}` | the enclosed part, when it is not |
/// | `{{! comment }}` | nothing |
///
/// There is no unescaped output (`{{{name}}}` and `{{& name}}` are errors: raw HTML from data is
/// exactly what Cellar never writes), no partials, no lambdas and no context stack. Names are
/// letters, digits, `_`, `-` and `.`. A malformed template is a ``PrototypeTemplateError`` at
/// start-up, with its line and column.
///
/// Why not swift-mustache: it renders through `String` with a dynamic context lookup per tag, and
/// its triple-stache writes raw HTML. Compiled segments cost a bulk copy per literal and one key
/// lookup per slot.
public final class PrototypeTemplate: Sendable {
    enum Segment: Sendable {
        case literal([UInt8])
        case value(String)
        case section(String, inverted: Bool, [Segment])
    }

    let segments: [Segment]
    /// Every name the template reads, in order of first use.
    public let keys: [String]
    /// For each of ``keys``, where the tag that first uses it starts (its `{{`). Only start-up
    /// checks read it (``PrototypeTagAudit``); rendering does not.
    let keyPositions: [Position]
    // The segments flattened into a little program over one byte array, so rendering a row is a
    // loop over plain values: no enum payloads to retain, no recursion.
    private let program: [Instruction]
    private let literals: [UInt8]
    /// The program and literals of ``unlinkedSource(of:)``, written for a row without a link; nil
    /// when the template opens no row link.
    private let unlinked: (program: [Instruction], literals: [UInt8])?

    /// One step of the program: a literal (possibly empty), then one action. Fusing each literal
    /// into the action after it halves the steps of a row (`SubtitleCell` runs four, not seven),
    /// and every step is a dispatch the processor must predict.
    struct Instruction: Sendable {
        enum Kind: UInt8, Sendable {
            /// Nothing after the literal.
            case literal
            /// The value of `keys[operand]`.
            case value
            /// The row's identifier (`{{id}}`), from the table.
            case identifier
            /// The row's detail link (`{{href}}`), from the table.
            case selection
            /// Skip to `jump` unless `keys[operand]` is truthy.
            case section
            /// Skip to `jump` if `keys[operand]` is truthy.
            case invertedSection
        }
        var kind: Kind
        var operand: Int32
        /// Where a section's end is (the step after its body).
        var jump: Int32
        /// `literals[literalStart..<literalStart + literalLength]`, written first.
        var literalStart: Int32
        var literalLength: Int32
    }

    /// A place in a template's source, as its errors and warnings give it: 1-based, columns
    /// counting characters, not bytes.
    struct Position: Sendable, Equatable {
        var line = 1
        var column = 1

        /// Moves past `bytes` of UTF-8 text.
        mutating func advance(over bytes: ArraySlice<UInt8>) {
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    // Not a UTF-8 continuation byte: the start of a character.
                    column += 1
                }
            }
        }
    }

    /// The names the table answers itself, before the row's data is asked: `{{id}}` and
    /// `{{href}}` (the compiler's `.identifier` and `.selection` steps).
    static let namesFromTheTable: Set<String> = ["id", "href"]

    /// Compiles a template; throws ``PrototypeTemplateError`` when it is malformed.
    public init(_ source: String) throws {
        var parser = Parser(source: Array(source.utf8))
        segments = try parser.parse()
        keys = parser.keys
        keyPositions = parser.positions(of: parser.keyOffsets)
        var compiler = Compiler(keys: parser.keys)
        compiler.compile(segments)
        compiler.flush()
        program = compiler.program
        literals = compiler.literals
        // The rewrite is textual: where it changes the template's structure (the link's `}}`
        // closing a comment opened before it), the template keeps its link for every row.
        var unlinkedParser = Self.unlinkedSource(of: source).map { Parser(source: Array($0.utf8)) }
        if let unlinkedSegments = try? unlinkedParser?.parse(), unlinkedParser?.keys.allSatisfy(keys.contains) == true {
            // Its keys are the template's (less `href`): a data type's slots serve both programs.
            var compiler = Compiler(keys: keys)
            compiler.compile(unlinkedSegments)
            compiler.flush()
            unlinked = (compiler.program, compiler.literals)
        } else {
            unlinked = nil
        }
    }

    /// Flattens segments into steps, each literal joined to the action that follows it.
    private struct Compiler {
        let keys: [String]
        var program: [Instruction] = []
        var literals: [UInt8] = []
        /// The literal bytes not yet attached to a step: `literals[pending...]`.
        var pending = 0

        init(keys: [String]) { self.keys = keys }

        /// Appends a step that writes the pending literal, then does `kind`; returns its index.
        @discardableResult mutating func emit(_ kind: Instruction.Kind, key: String? = nil) -> Int {
            let operand = key.map { Int32(keys.firstIndex(of: $0) ?? 0) } ?? 0
            program.append(
                Instruction(
                    kind: kind, operand: operand, jump: 0, literalStart: Int32(pending), literalLength: Int32(literals.count - pending)))
            pending = literals.count
            return program.count - 1
        }

        /// Writes the pending literal as a step of its own, if there is one. A section's body ends
        /// with it: a jump past the body must not land on a step that writes the body's last bytes.
        mutating func flush() {
            if literals.count > pending { emit(.literal) }
        }

        mutating func compile(_ segments: [Segment]) {
            for segment in segments {
                switch segment {
                case .literal(let bytes):
                    literals.append(contentsOf: bytes)
                case .value("id"):
                    emit(.identifier)
                case .value("href"):
                    emit(.selection)
                case .value(let key):
                    emit(.value, key: key)
                case .section(let key, let inverted, let body):
                    let start = emit(inverted ? .invertedSection : .section, key: key)
                    compile(body)
                    flush()
                    program[start].jump = Int32(program.count)
                }
            }
        }
    }

    /// Writes the template filled from `data` (every value escaped).
    public func render(into html: inout HTMLWriter, data: some PrototypeData) {
        render(into: &html, data: data, selection: nil)
    }

    /// Writes the template filled from `data`, with `{{id}}` and `{{href}}` taken from the row's selection.
    public func render(into html: inout HTMLWriter, data: some PrototypeData, selection: RowSelection?) {
        render(into: &html, data: data, selection: selection, slots: nil)
    }

    /// ``render(into:data:selection:)`` with `slots`, which holds for each of ``keys`` the data
    /// type's slot for it (see ``slots(for:)``), or -1 for a key written by name.
    func render(into html: inout HTMLWriter, data: some PrototypeData, selection: RowSelection?, slots: UnsafePointer<Int32>?) {
        // A row without a detail is written without its link, unless its data gives one.
        if selection == nil, let unlinked, !data.prototypeValue(forKey: "href").isTruthy {
            run(unlinked.program, literals: unlinked.literals, into: &html, data: data, selection: nil, slots: slots)
        } else {
            run(program, literals: literals, into: &html, data: data, selection: selection, slots: slots)
        }
    }

    private func run(
        _ program: [Instruction], literals: [UInt8], into html: inout HTMLWriter, data: some PrototypeData, selection: RowSelection?,
        slots: UnsafePointer<Int32>?
    ) {
        // The program, literals and keys are borrowed once per row, not looked up per instruction.
        program.withUnsafeBufferPointer { program in
            keys.withUnsafeBufferPointer { keys in
                literals.withUnsafeBytes { literals in
                    run(program, keys: keys, literals: literals, into: &html, data: data, selection: selection, slots: slots)
                }
            }
        }
    }

    /// For each of ``keys``, its slot in `Data`'s ``PrototypeData/prototypeSlots``, or -1.
    func slots<Data: PrototypeData>(for data: Data.Type) -> [Int32] {
        let names = Data.prototypeSlots
        return keys.map { key in names.firstIndex(of: key).map { Int32($0) } ?? -1 }
    }

    private func run(
        _ program: UnsafeBufferPointer<Instruction>, keys: UnsafeBufferPointer<String>, literals: UnsafeRawBufferPointer,
        into html: inout HTMLWriter, data: some PrototypeData, selection: RowSelection?, slots: UnsafePointer<Int32>?
    ) {
        let hasSelection = selection != nil
        var counter = 0
        while counter < program.count {
            let instruction = program[counter]
            counter += 1
            if instruction.literalLength > 0 {
                let start = Int(instruction.literalStart)
                html.append(UnsafeRawBufferPointer(rebasing: literals[start..<start + Int(instruction.literalLength)]))
            }
            switch instruction.kind {
            case .literal:
                break
            case .value:
                let key = Int(instruction.operand)
                if let slot = slots?[key], slot >= 0 {
                    data.writePrototypeValue(slot: Int(slot), into: &html)
                } else {
                    data.writePrototypeValue(forKey: keys[key], into: &html)
                }
            case .selection:
                if let selection {
                    selection.write(into: &html)
                } else {
                    data.prototypeValue(forKey: "href").write(into: &html)
                }
            case .identifier:
                if let identifier = selection?.identifier {
                    html.text(identifier)
                } else {
                    data.prototypeValue(forKey: "id").write(into: &html)
                }
            case .section, .invertedSection:
                let key = keys[Int(instruction.operand)]
                let truthy: Bool
                if hasSelection && (key == "id" || key == "href") {
                    truthy = true
                } else {
                    truthy = data.prototypeValue(forKey: key).isTruthy
                }
                if truthy == (instruction.kind == .invertedSection) { counter = Int(instruction.jump) }
            }
        }
    }
}
