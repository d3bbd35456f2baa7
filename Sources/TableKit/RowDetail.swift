/// The selected row's detail: a title and labelled values (a `<dl>` on the page).
public struct RowDetail: Sendable {
    public var title: String
    public var fields: [Field]

    public struct Field: Sendable {
        public var label: String
        public var value: String
        /// A link for the value (e.g. `mailto:`), written escaped; only http(s), mailto and relative links are kept.
        public var link: String?

        public init(_ label: String, _ value: String, link: String? = nil) {
            self.label = label
            self.value = value
            self.link = link
        }
    }

    public init(title: String, fields: [Field]) {
        self.title = title
        self.fields = fields
    }
}
