/// An object's members after its first: `,"name":value`, one call a member.
///
/// The first member of an object is its ``JSONWriter/key(_:)-(StaticString)`` and value; every
/// member after it starts with the comma these write.
extension JSONWriter {
    /// `,"name":` — the key of a member whose value the caller writes next.
    public mutating func member(_ name: StaticString) {
        raw(",")
        key(name)
    }

    /// `,"name":"value"`, or `,"name":null` when `value` is nil.
    public mutating func member(_ name: StaticString, _ value: String?) {
        member(name)
        string(orNull: value)
    }

    /// `,"name":N`, or `,"name":null` when `value` is nil.
    public mutating func member(_ name: StaticString, _ value: Int?) {
        member(name)
        if let value { number(value) } else { null() }
    }

    /// `,"name":true` or `,"name":false`.
    public mutating func member(_ name: StaticString, _ value: Bool) {
        member(name)
        bool(value)
    }
}
