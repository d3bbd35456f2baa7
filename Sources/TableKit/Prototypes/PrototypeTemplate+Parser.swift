/// Reads a template's source into segments, noting the names it reads and where, and the
/// line and column of the first error.
extension PrototypeTemplate {
    struct Parser {
        let source: [UInt8]
        var position = 0
        var keys: [String] = []
        /// For each of `keys`, the offset of the tag that first uses it.
        var keyOffsets: [Int] = []
        var depth = 0
        static let maximumDepth = 32

        init(source: [UInt8]) { self.source = source }

        mutating func parse() throws -> [Segment] {
            let (segments, closing) = try parseSegments()
            if let closing {
                throw error("unexpected {{/\(closing.name)}} with no open section", at: closing.offset)
            }
            return segments
        }

        /// Parses until the end or a closing tag, which it returns with its offset.
        mutating func parseSegments() throws -> ([Segment], (name: String, offset: Int)?) {
            var segments: [Segment] = []
            var literal: [UInt8] = []
            func flush() {
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = []
            }
            while position < source.count {
                guard startsWith("{{") else {
                    literal.append(source[position])
                    position += 1
                    continue
                }
                let tagStart = position
                position += 2
                guard let end = find("}}") else { throw error("unclosed tag: missing }}", at: tagStart) }
                var inner = Array(source[position..<end])
                position = end + 2
                guard let sigil = inner.first else { throw error("empty tag {{}}", at: tagStart) }
                switch sigil {
                case UInt8(ascii: "!"):
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "&"):
                    throw error("unescaped output ({{{…}}} or {{&…}}) is not supported: every value is escaped", at: tagStart)
                case UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: "$"):
                    throw error("partials, blocks and delimiter changes are not supported", at: tagStart)
                case UInt8(ascii: "#"), UInt8(ascii: "^"):
                    inner.removeFirst()
                    let name = try validName(inner, at: tagStart)
                    depth += 1
                    if depth > Parser.maximumDepth { throw error("sections nested deeper than \(Parser.maximumDepth)", at: tagStart) }
                    flush()
                    let (body, closing) = try parseSegments()
                    guard let closing else { throw error("section {{\(Character(Unicode.Scalar(sigil)))\(name)}} is never closed", at: tagStart) }
                    guard closing.name == name else {
                        throw error("{{/\(closing.name)}} closes {{\(Character(Unicode.Scalar(sigil)))\(name)}}", at: closing.offset)
                    }
                    depth -= 1
                    segments.append(.section(name, inverted: sigil == UInt8(ascii: "^"), body))
                case UInt8(ascii: "/"):
                    inner.removeFirst()
                    let name = try validName(inner, at: tagStart)
                    flush()
                    return (segments, (name, tagStart))
                default:
                    let name = try validName(inner, at: tagStart)
                    flush()
                    segments.append(.value(name))
                }
            }
            flush()
            return (segments, nil)
        }

        mutating func validName(_ bytes: [UInt8], at offset: Int) throws -> String {
            var slice = bytes[...]
            while let first = slice.first, first == 0x20 || first == 0x09 { slice.removeFirst() }
            while let last = slice.last, last == 0x20 || last == 0x09 { slice.removeLast() }
            guard !slice.isEmpty else { throw error("a tag needs a name", at: offset) }
            for byte in slice {
                let allowed =
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                guard allowed else { throw error("invalid character in tag name (letters, digits, _ - . only)", at: offset) }
            }
            let name = String(decoding: slice, as: UTF8.self)
            if !keys.contains(name) {
                keys.append(name)
                keyOffsets.append(offset)
            }
            return name
        }

        func startsWith(_ marker: StaticString) -> Bool {
            marker.withUTF8Buffer { marker in
                guard position + marker.count <= source.count else { return false }
                for index in 0..<marker.count where source[position + index] != marker[index] { return false }
                return true
            }
        }

        func find(_ marker: StaticString) -> Int? {
            var probe = self
            while probe.position < source.count {
                if probe.startsWith(marker) { return probe.position }
                probe.position += 1
            }
            return nil
        }

        func error(_ message: String, at offset: Int) -> PrototypeTemplateError {
            let position = position(of: offset)
            return PrototypeTemplateError(message: message, line: position.line, column: position.column)
        }

        /// The line and column of a byte offset in the source.
        func position(of offset: Int) -> Position {
            var position = Position()
            position.advance(over: source[..<min(offset, source.count)])
            return position
        }

        /// The line and column of each of `offsets`, which increase (as the keys' do): one pass
        /// over the source for all of them.
        func positions(of offsets: [Int]) -> [Position] {
            var position = Position()
            var scanned = 0
            return offsets.map { offset in
                position.advance(over: source[scanned..<offset])
                scanned = offset
                return position
            }
        }
    }
}
