/// The selected row's detail: a title and labelled values (a `<dl>` on the page), and the rows
/// elsewhere that refer to it.
public struct RowDetail: Sendable {
    public var title: String
    public var fields: [Field]
    /// Other lists' rows that refer to this one (a database row's incoming foreign keys), each a
    /// link to those rows: listed under the fields.
    public var references: [Reference]
    /// The row's version, when its store keeps one (a database row's: a hash of its values): its
    /// page's `ETag`, which a write's `If-Match` names to be refused if the row changed since.
    public var version: String?
    /// What the viewer may do to the row, under its fields: links (Edit) and buttons that post
    /// (Delete), each to its path.
    public var actions: [RowAction] = []

    /// One thing to do to the row: a link, or a form that posts to `path` (no JavaScript needed).
    public struct RowAction: Sendable {
        public var title: String
        public var path: String
        public var posts: Bool
        /// `.destructive` for an action that removes or loses data (Delete): shown in red, as a
        /// destructive contextual action is.
        public var style: ContextualAction.Style

        public init(_ title: String, path: String, posts: Bool = false, style: ContextualAction.Style = .normal) {
            self.title = title
            self.path = path
            self.posts = posts
            self.style = style
        }
    }

    public struct Field: Sendable {
        public var label: String
        public var value: String
        /// A link for the value (e.g. `mailto:`), written escaped; only http(s), mailto and relative links are kept.
        public var link: String?
        /// The value is missing (SQL's NULL): shown so that it cannot be taken for the text "NULL", `null` in JSON.
        public var isNull: Bool

        public init(_ label: String, _ value: String, link: String? = nil, isNull: Bool = false) {
            self.label = label
            self.value = value
            self.link = link
            self.isNull = isNull
        }
    }

    /// The rows of one list that refer to the row: "12 rows in stocks reference this symbol".
    public struct Reference: Sendable {
        /// What the link says.
        public var text: String
        /// The referring rows' list, filtered to them.
        public var link: String
        /// The referring list's name, and the column that refers.
        public var list: String
        public var column: String
        /// How many rows refer, up to a limit; `countIsExact` is false past it.
        public var count: Int
        public var countIsExact: Bool

        public init(text: String, link: String, list: String, column: String, count: Int, countIsExact: Bool = true) {
            self.text = text
            self.link = link
            self.list = list
            self.column = column
            self.count = count
            self.countIsExact = countIsExact
        }
    }

    public init(title: String, fields: [Field], references: [Reference] = []) {
        self.title = title
        self.fields = fields
        self.references = references
    }
}
