import ByteWriters
import FoundationEssentials
import TableKit

/// The frame around every page — document head, site header, footer — as an HTML template with
/// named slots, so an app can change it without forking Cellar.
///
/// A slot is a name between double braces. Each is filled by Cellar:
///
/// | slot | what it holds |
/// | --- | --- |
/// | `{{title}}` | the page's title (a list's, a row's or an error's), escaped |
/// | `{{documentTitle}}` | `title · siteName` for the `<title>` element, or the title alone when it is the site's name, escaped |
/// | `{{siteName}}` | ``App/siteName``, escaped |
/// | `{{head}}` | the links to `/static/app.css`, `/static/favicon.svg` and `/static/app.js` |
/// | `{{skipLink}}` | the "Skip to content" link to `#main`, for keyboard users |
/// | `{{header}}` | the site header: the brand, linked home, and `{{navigation}}` |
/// | `{{navigation}}` | the lists as a `<nav>`, the current one marked `aria-current="page"` |
/// | `{{main}}` | the `<main id="main">` element: the list, row or error, and the live region |
/// | `{{footer}}` | the site footer |
///
/// `{{main}}` must be there exactly once; the others any number of times, or not at all (a
/// layout without `{{head}}` has neither the stylesheet nor the script). Everything else is
/// copied as it is: there is no way to write `{{` as text. A template with an unknown slot, a
/// malformed or unclosed tag, or without `{{main}}` is a ``PageLayoutError`` naming its line
/// and column, when the layout is made at start-up, never later.
///
/// ``standard`` is Cellar's own frame, ``defaultTemplate``: a starting point for a
/// `layout.html` of your own (see ``App/loadLayout()``).
public struct PageLayout: Sendable {
    /// What Cellar writes in place of a `{{name}}`.
    enum Slot: String, Sendable, CaseIterable {
        case title, documentTitle, siteName, head, skipLink, header, navigation, main, footer
    }

    /// Text of the template, or a slot, in order.
    enum Piece: Sendable, Equatable {
        case text(String)
        case slot(Slot)
    }

    let pieces: [Piece]
    /// A hash of the template, for the validators of pages (their bytes depend on it).
    let fingerprint: UInt64

    /// The name of the layout file ``App/loadLayout()`` reads from the public folder.
    public static let fileName = "layout.html"

    /// Cellar's own frame, as a template.
    public static let defaultTemplate = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{documentTitle}}</title>
        {{head}}
        </head>
        <body>
        {{skipLink}}
        {{header}}
        {{main}}
        {{footer}}
        </body>
        </html>

        """

    /// The frame every page has unless the app sets another.
    public static let standard: PageLayout = {
        // The default template is a constant of this file, not input: a parse error here is a
        // bug in Cellar itself, caught by PageLayoutTests (the default frame's bytes), so it traps.
        do {
            return try PageLayout(template: defaultTemplate)
        } catch {
            fatalError("Cellar's default layout does not parse: \(error)")
        }
    }()

    /// Parses `template`; `file` names where it came from in errors.
    public init(template: String, file: String? = nil) throws(PageLayoutError) {
        pieces = try Parser(source: Array(template.utf8), file: file).parse()
        var hash = StableHash()
        hash.combine(template)
        fingerprint = hash.value
    }

    struct Parser {
        let source: [UInt8]
        let file: String?

        func parse() throws(PageLayoutError) -> [Piece] {
            var pieces: [Piece] = []
            var textStart = 0
            var position = 0
            var hasMain = false
            while position + 1 < source.count {
                guard source[position] == UInt8(ascii: "{"), source[position + 1] == UInt8(ascii: "{") else {
                    position += 1
                    continue
                }
                let tagStart = position
                var close = tagStart + 2
                while close + 1 < source.count, !(source[close] == UInt8(ascii: "}") && source[close + 1] == UInt8(ascii: "}")) {
                    guard source[close] != UInt8(ascii: "\n") else { throw error("'{{' is not closed by '}}' on its line", at: tagStart) }
                    close += 1
                }
                guard close + 1 < source.count else { throw error("'{{' is not closed by '}}'", at: tagStart) }
                let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
                let inner = source[(tagStart + 2)..<close].drop(while: isSpace).reversed().drop(while: isSpace).reversed()
                let name = String(decoding: inner, as: UTF8.self)
                let tag = String(decoding: source[tagStart..<(close + 2)], as: UTF8.self)
                guard !name.isEmpty, name.utf8.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) else {
                    throw error("malformed tag \(tag): a slot is a name of letters, such as {{title}}", at: tagStart)
                }
                guard let slot = Slot(rawValue: name) else {
                    let names = Slot.allCases.map { "{{\($0.rawValue)}}" }.joined(separator: ", ")
                    throw error("unknown slot \(tag); the slots are \(names)", at: tagStart)
                }
                if slot == .main {
                    guard !hasMain else { throw error("a second {{main}}: the layout holds it exactly once", at: tagStart) }
                    hasMain = true
                }
                if textStart < tagStart { pieces.append(.text(String(decoding: source[textStart..<tagStart], as: UTF8.self))) }
                pieces.append(.slot(slot))
                position = close + 2
                textStart = position
            }
            guard hasMain else { throw error("no {{main}}: the layout must hold it exactly once", at: source.count) }
            if textStart < source.count { pieces.append(.text(String(decoding: source[textStart...], as: UTF8.self))) }
            return pieces
        }

        /// The error at a byte offset, as a line and a column of characters, both from 1.
        func error(_ message: String, at offset: Int) -> PageLayoutError {
            var line = 1
            var column = 1
            for byte in source[..<min(offset, source.count)] {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return .invalid(file: file, line: line, column: column, message: message)
        }
    }
}

/// Why a page layout cannot be used; each says where and what to fix.
public enum PageLayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The layout file exists but cannot be read as UTF-8 text.
    case unreadable(file: String, reason: String)
    /// The template is not a valid layout: at `line` and `column` (from 1) of `file` (nil for a
    /// template given as a string).
    case invalid(file: String?, line: Int, column: Int, message: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason): "Cannot read the layout \(file): \(reason)"
        case .invalid(let file, let line, let column, let message): "The layout \(file ?? "template"), line \(line), column \(column): \(message)"
        }
    }
}

extension App {
    /// Makes `layout.html` in the public folder, when there is one, the frame of every page
    /// (``layout``); without that file the layout stays as it is. ``run(siteName:version:arguments:_:)``
    /// calls it before the app's set-up closure; an app that runs its own server calls it at
    /// start-up, before ``makeRouter()`` and ``errorRenderer``, which take the layout as it is then.
    ///
    /// - Returns: whether a layout file was read.
    /// - Throws: ``PageLayoutError`` naming the file, and the line and column of what is wrong.
    @discardableResult
    public func loadLayout() throws(PageLayoutError) -> Bool {
        let path = publicDirectory + "/" + PageLayout.fileName
        guard FileManager.default.fileExists(atPath: path) else { return false }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(file: path, reason: "the file cannot be read") }
        guard let text = String(validating: data, as: UTF8.self) else { throw .unreadable(file: path, reason: "the file is not UTF-8") }
        layout = try PageLayout(template: text, file: path)
        return true
    }
}
