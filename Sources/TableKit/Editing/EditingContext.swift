/// What a commit needs besides the row: who asked, and what their form sent. UIKit's
/// `tableView(_:commit:forRowAt:)` has no room for either, as an app's own device has one user;
/// a server has many, so Cellar hands this to every commit, move and action.
public struct EditingContext {
    /// The signed-in account that asked, or nil for a visitor (where the list's permissions let
    /// anyone edit).
    public let actor: String?
    /// The form's fields as sent, by name (an insert or an edit; empty for a delete or a move).
    public let values: [String: String]
    /// When this insert puts back a deleted row ("Undo"), the identifier the row had: `values`
    /// are its editing form's values at the time, and the index path is where it was. Restore the
    /// row under this identifier where the store can: Cellar refuses an Undo while a row of that
    /// identifier is in the list, so that a row is restored once.
    public let restoring: String?
    private let makeDecoder: (() -> any Decoder)?

    /// - Parameter makeDecoder: a decoder over `values` that checks each against its form field
    ///   (Cellar's); nil, the default, for a context without a form, which decodes nothing.
    public init(
        actor: String?, values: [String: String] = [:], restoring: String? = nil, makeDecoder: (() -> any Decoder)? = nil
    ) {
        self.actor = actor
        self.values = values
        self.restoring = restoring
        self.makeDecoder = makeDecoder
    }

    /// Whether this insert is an Undo of a delete.
    public var isUndo: Bool { restoring != nil }

    /// The form's values decoded into `Value`, each stored property from the field of its name, as
    /// `app.form` decodes them: `let bottle = try context.decode(Bottle.self)`. A value that does
    /// not decode is a 422 with the message on its field.
    public func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        try Value(from: makeDecoder?() ?? NoValues())
    }

    /// A decoder with nothing to decode: a delete or a move has no form.
    struct NoValues: Decoder {
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw noValues }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw noValues }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw noValues }
        private var noValues: DecodingError {
            .valueNotFound(Any.self, .init(codingPath: [], debugDescription: "This change sent no form to decode."))
        }
    }
}
