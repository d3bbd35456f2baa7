/// How a person finds a value among more choices than a page can list (a foreign key into a table
/// of thousands of rows): typed, with suggestions a script fetches as they type, or, without a
/// script, chosen on a page of matches that sends them back to the form (``SearchFieldCell``).
///
/// Addresses are the server's: TableKit writes them into the page and knows no HTTP.
public struct ChoiceSearch: Sendable, Equatable {
    /// The address of the matches as JSON, `{"choices": [{"value": …, "label": …}]}`, to which the
    /// script appends `q=` and what was typed.
    public var source: String
    /// Where "Choose…" sends the form's values by GET (`formaction`): a page of matches with a
    /// search box, each a link back to the form with the field set and the other values kept. Nil
    /// for no such button: a form holding a password must not put it in an address.
    public var chooseAction: String?
    /// Values that page must carry back besides the form's fields (an edit's row version), sent as
    /// hidden inputs beside the button.
    public var carried: [String: String]
    /// What the field's current value is called (the referenced row's label), shown beside it.
    public var selectedTitle: String?

    public init(source: String, chooseAction: String?, carried: [String: String] = [:], selectedTitle: String? = nil) {
        self.source = source
        self.chooseAction = chooseAction
        self.carried = carried
        self.selectedTitle = selectedTitle
    }
}
