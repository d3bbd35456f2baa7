/// The module and arguments of a `CREATE VIRTUAL TABLE … USING module(arguments)` statement, as
/// `sqlite_schema.sql` keeps it: how the schema finds FTS5 tables and what they index.
///
/// SQLite hands a module its arguments as text split at top-level commas; FTS5 then reads each as
/// `name = value` (an option) or a column name, optionally followed by `UNINDEXED`. Names and values
/// may be bare or quoted four ways (`'…'`, `"…"`, `` `…` ``, `[…]`), which is what this parser undoes.
struct VirtualTableDeclaration: Sendable, Hashable {
    /// The module's name, as written (`fts5`, `FTS5`, `rtree`).
    let module: String
    /// Each argument's tokens, quotes removed.
    let arguments: [[Token]]

    enum Token: Sendable, Hashable {
        /// A bare word: a name, a keyword or a number.
        case word(String)
        /// A quoted string or identifier, unquoted.
        case quoted(String)
        /// `(`, `)`, `,`, `=` or `;`.
        case symbol(Character)

        /// The token's text: the word, or the quoted text without its quotes.
        var text: String {
            switch self {
            case .word(let text), .quoted(let text): text
            case .symbol(let symbol): String(symbol)
            }
        }
    }

    /// Nil when `sql` is not a `CREATE VIRTUAL TABLE` statement that this parser can read.
    init?(sql: String) {
        let tokens = Self.tokens(of: sql)
        // CREATE VIRTUAL TABLE [IF NOT EXISTS] [schema .] name USING module [( arguments )]
        guard tokens.count >= 6, tokens[0].isWord("create"), tokens[1].isWord("virtual"), tokens[2].isWord("table"),
            let using = tokens.firstIndex(where: { $0.isWord("using") }), using + 1 < tokens.count
        else { return nil }
        switch tokens[using + 1] {
        case .word(let name), .quoted(let name): module = name
        case .symbol: return nil
        }
        var arguments: [[Token]] = []
        var rest = tokens[(using + 2)...]
        if rest.first == .symbol("(") {
            rest = rest.dropFirst()
            var current: [Token] = []
            var depth = 0
            for token in rest {
                if token == .symbol("(") { depth += 1 }
                if token == .symbol(")") {
                    if depth == 0 { break }
                    depth -= 1
                }
                if token == .symbol(","), depth == 0 {
                    arguments.append(current)
                    current = []
                } else {
                    current.append(token)
                }
            }
            if !current.isEmpty { arguments.append(current) }
        }
        self.arguments = arguments
    }

    /// The `name = value` arguments, by name with ASCII letters lowercased; a value of several tokens is joined by spaces.
    var options: [String: String] {
        var options: [String: String] = [:]
        for argument in arguments where argument.count >= 2 && argument[1] == .symbol("=") {
            options[argument[0].text.sqliteFolded] = argument.dropFirst(2).map(\.text).joined(separator: " ")
        }
        return options
    }

    /// The arguments that are not options: FTS5's columns, with whether they are indexed.
    var columns: [(name: String, indexed: Bool)] {
        arguments.compactMap { argument in
            guard let first = argument.first, argument.count < 2 || argument[1] != .symbol("=") else { return nil }
            return (first.text, !argument.dropFirst().contains { $0.isWord("unindexed") })
        }
    }

    /// Splits SQL into words, unquoted strings and symbols, skipping spaces and comments.
    static func tokens(of sql: String) -> [Token] {
        var tokens: [Token] = []
        let characters = Array(sql)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if character == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                index += 2
                while index < characters.count, !(characters[index] == "*" && index + 1 < characters.count && characters[index + 1] == "/") {
                    index += 1
                }
                index += 2
            } else if let close = Self.closingQuote[character] {
                // A doubled closing quote inside stands for one (not in […], which has no escape).
                var text = ""
                index += 1
                while index < characters.count {
                    if characters[index] == close {
                        if close != "]", index + 1 < characters.count, characters[index + 1] == close {
                            text.append(close)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    text.append(characters[index])
                    index += 1
                }
                tokens.append(.quoted(text))
            } else if "(),=;.".contains(character) {
                tokens.append(.symbol(character))
                index += 1
            } else {
                var word = ""
                while index < characters.count, !characters[index].isWhitespace, !"(),=;.'\"`[".contains(characters[index]) {
                    word.append(characters[index])
                    index += 1
                }
                tokens.append(.word(word))
            }
        }
        return tokens
    }

    private static let closingQuote: [Character: Character] = ["'": "'", "\"": "\"", "`": "`", "[": "]"]
}

extension VirtualTableDeclaration.Token {
    /// A bare word equal to `keyword`, ASCII letters compared case-insensitively.
    func isWord(_ keyword: String) -> Bool {
        if case .word(let word) = self { return word.sqliteFolded == keyword }
        return false
    }
}
