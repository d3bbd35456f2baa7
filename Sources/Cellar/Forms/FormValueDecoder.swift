import FoundationEssentials
import TableKit

/// Decodes a form's checked text values into the app's `Decodable` value: each stored property a
/// field of the same name. A number field's text decodes as any integer or floating-point type, a
/// switch's as a `Bool`, a date's as a ``CalendarDay``, a `Date` (midnight UTC) or its text; an
/// enum with a raw value from a picker's value. An empty field is nil for an optional; a text
/// field left out is empty, a switch off.
///
/// Forms are flat: a property that is an array or a nested type is a decoding error, as is one the
/// form has no field for (a mistake in the app, reported with the property's name).
struct FormValueDecoder: Decoder {
    let values: [String: String]
    let fields: [String: FormField]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FormKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: [], debugDescription: "A form decodes into a struct of its fields, not a list."))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: [], debugDescription: "A form decodes into a struct of its fields, not a single value."))
    }

    /// The text of `key`'s field: what was sent, or for a field left out, what a browser sends for
    /// it empty (nothing for a text, `0` for a switch); nil when the form has no such field or the
    /// field is of another kind.
    func text(for key: some CodingKey) -> String? {
        if let value = values[key.stringValue] { return value }
        switch fields[key.stringValue]?.kind {
        case .text, .textArea, .secure, .search: return ""
        case .toggle: return "0"
        default: return nil
        }
    }
}

private struct FormKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: FormValueDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { decoder.values.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { decoder.values[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let text = decoder.values[key.stringValue] else { return true }
        return text.allSatisfy(\.isWhitespace)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let text = decoder.text(for: key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [key], debugDescription: "No value for '\(key.stringValue)'."))
        }
        // Through the single value's own `decode`, which knows `Date` and the integers.
        return try FieldTextDecoder(text: text, codingPath: [key]).decode(T.self)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as UInt16.Type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as UInt32.Type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, key) }

    /// The primitive overloads, through the generic one (whose single-value decoder parses the text).
    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw FieldTextDecoder.flat(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw FieldTextDecoder.flat(key) }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw FieldTextDecoder.flat(key) }
}

/// One field's text, decoded as the type its property has.
private struct FieldTextDecoder: Decoder, SingleValueDecodingContainer {
    let text: String
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func flat(_ key: some CodingKey) -> DecodingError { flat(codingPath: [key]) }

    static func flat(codingPath: [any CodingKey]) -> DecodingError {
        .typeMismatch(String.self, .init(codingPath: codingPath, debugDescription: "A form's field holds text, not a list or a nested value."))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw Self.flat(codingPath: codingPath) }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.flat(codingPath: codingPath) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { text.allSatisfy(\.isWhitespace) }

    private func mismatch<T>(_ type: T.Type, _ what: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "'\(text)' is not \(what)."))
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard let value = FormField.switchValue(text) else { throw mismatch(type, "on or off") }
        return value
    }

    func decode(_ type: String.Type) throws -> String { text }

    func decode(_ type: Double.Type) throws -> Double {
        guard let value = Double(text.trimmingWhitespace), value.isFinite else { throw mismatch(type, "a number") }
        return value
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    /// The text as a whole number of `type`: its digits, or a number such as `12.0` that is one.
    private func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        let trimmed = String(text.trimmingWhitespace)
        guard let value = Integer(trimmed) ?? Double(trimmed).flatMap({ Integer(exactly: $0) }) else {
            throw mismatch(type, "a whole number in range")
        }
        return value
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            guard let day = CalendarDay(String(text.trimmingWhitespace)),
                let date = Date(timeIntervalSince1970: Double(day.daysSince1970) * 86_400) as? T
            else { throw mismatch(type, "a date written YYYY-MM-DD") }
            return date
        }
        return try T(from: self)
    }
}

extension String {
    /// The text without the spaces, tabs and line breaks around it.
    var trimmingWhitespace: Substring {
        var text = self[...]
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
