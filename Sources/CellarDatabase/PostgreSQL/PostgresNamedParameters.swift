/// A canned query's `:name` parameters written as PostgreSQL's `$1`, `$2`…, which it binds: SQLite
/// reads `:name` itself, PostgreSQL does not. The statement is read as PostgreSQL's lexer reads
/// it, so that what is not a parameter stays as written: string constants (`'a:b'`, `E'\':x'`,
/// `$tag$ … $tag$`), quoted identifiers (`":x"`), comments (`-- :x`, nested `/* :x */`), casts
/// (`x::int`). A name given twice is one parameter. The values are bound as text of unknown type,
/// which PostgreSQL reads as what the statement compares them with: never spliced into the SQL.
struct PostgresNamedParameters: Equatable {
    /// The statement with `$n` in place of each `:name`.
    let sql: String
    /// The names without `:`, in the order of their numbers (`$1` is the first).
    let names: [String]

    enum Problem: Error, Equatable {
        /// A `$1` of its own: the form could not ask for it.
        case positional
    }

    init(_ statement: String) throws(Problem) {
        let text = Array(statement.unicodeScalars)
        var out = String.UnicodeScalarView()
        var names: [String] = []
        var index = 0
        func isNameStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
        func isNameChar(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) }
        /// Copies from `index` up to and including the end of what starts there, closed by `end`.
        func copy(until end: [Unicode.Scalar], escapes: Bool = false, doubled: Bool = false) {
            while index < text.count {
                let c = text[index]
                if escapes && c == "\\" && index + 1 < text.count {
                    out.append(c)
                    out.append(text[index + 1])
                    index += 2
                    continue
                }
                if Array(text[index..<min(text.count, index + end.count)]) == end {
                    // `''` inside a string constant, `""` inside an identifier: the quote itself.
                    if doubled && index + 1 < text.count && text[index + 1] == end[0] {
                        out.append(c)
                        out.append(c)
                        index += 2
                        continue
                    }
                    out.append(contentsOf: end)
                    index += end.count
                    return
                }
                out.append(c)
                index += 1
            }
        }
        while index < text.count {
            let c = text[index]
            let next: Unicode.Scalar? = index + 1 < text.count ? text[index + 1] : nil
            switch c {
            case "'":
                // `E'…'` reads backslash escapes.
                let escapes = index > 0 && (text[index - 1] == "E" || text[index - 1] == "e") && (index < 2 || !isNameChar(text[index - 2]))
                out.append(c)
                index += 1
                copy(until: ["'"], escapes: escapes, doubled: true)
            case "\"":
                out.append(c)
                index += 1
                copy(until: ["\""], doubled: true)
            case "-" where next == "-":
                copy(until: ["\n"])
            case "/" where next == "*":
                // PostgreSQL's block comments nest.
                var depth = 0
                while index < text.count {
                    if text[index] == "/" && index + 1 < text.count && text[index + 1] == "*" {
                        depth += 1
                        out.append(contentsOf: [text[index], text[index + 1]])
                        index += 2
                    } else if text[index] == "*" && index + 1 < text.count && text[index + 1] == "/" {
                        depth -= 1
                        out.append(contentsOf: [text[index], text[index + 1]])
                        index += 2
                        if depth == 0 { break }
                    } else {
                        out.append(text[index])
                        index += 1
                    }
                }
            case "$" where next.map { ("0"..."9").contains($0) } == true && (index == 0 || !isNameChar(text[index - 1])):
                throw .positional
            case "$" where index == 0 || !isNameChar(text[index - 1]):
                // `$tag$ … $tag$` (or `$$ … $$`): a string constant; a lone `$` is copied as it is.
                var end = index + 1
                while end < text.count && isNameChar(text[end]) { end += 1 }
                guard end < text.count, text[end] == "$" else {
                    out.append(c)
                    index += 1
                    continue
                }
                let tag = Array(text[index...end])
                out.append(contentsOf: tag)
                index = end + 1
                copy(until: tag)
            case ":" where next == ":":
                out.append(contentsOf: [c, c])
                index += 2
            case ":" where next.map(isNameStart) == true:
                var end = index + 1
                while end < text.count && isNameChar(text[end]) { end += 1 }
                let name = String(String.UnicodeScalarView(text[(index + 1)..<end]))
                if !names.contains(name) { names.append(name) }
                out.append(contentsOf: "$\(names.firstIndex(of: name)! + 1)".unicodeScalars)
                index = end
            default:
                out.append(c)
                index += 1
            }
        }
        self.sql = String(out)
        self.names = names
    }
}
