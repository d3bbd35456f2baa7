import FoundationEssentials

/// Encodes `Encodable` values straight into a ``JSONWriter``: Codable without `JSONEncoder`,
/// without an intermediate tree, and with the writer's escaping.
///
/// Codable containers have no "end" call, so the encoder keeps a stack of open objects and
/// arrays and closes the deeper ones as soon as a shallower container writes again, and all of
/// them when the value is done. One encoder serves a whole response.
///
/// `Date` is written as an ISO 8601 string, `URL` as its absolute string, `Decimal` as a number,
/// `Data` as base64, non-finite numbers as `null`.
final class JSONItemEncoder: Encoder {
    private struct Frame {
        let isArray: Bool
        var count: Int
    }

    // State of one response, used by one thread: no run-time exclusivity checks.
    @exclusivity(unchecked) var writer = JSONWriter()
    @exclusivity(unchecked) private var stack: [Frame] = []
    /// Whether the next container or single value fills a slot that was just opened (a key or an array position).
    @exclusivity(unchecked) private var expectingValue = false
    /// Where the container of the value being encoded sits in `stack`: a second `container(keyedBy:)`
    /// for the same value (a subclass after `super.encode(to: encoder)`) writes into that one.
    @exclusivity(unchecked) private var valueDepth = 0

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Writes `value` as one JSON value.
    func encode(_ value: some Encodable) throws {
        let base = stack.count
        try encodeNested(value, base: base)
    }

    private func encodeNested<Value: Encodable>(_ value: Value, base: Int) throws {
        // Comparing metadata is a pointer compare, far cheaper than a dynamic cast per value: the
        // cast runs only for the type it names.
        if Value.self == Date.self, let date = value as? Date {
            writer.string(date.formatted(.iso8601))
            return
        }
        if Value.self == URL.self, let url = value as? URL {
            writer.string(url.absoluteString)
            return
        }
        // As JSONEncoder: a Decimal is a number (its own Codable is its internal fields), Data is base64.
        if Value.self == Decimal.self, let decimal = value as? Decimal {
            if decimal.isNaN { writer.null() } else { writer.unsafeRaw(decimal.description) }
            return
        }
        if Value.self == Data.self, let data = value as? Data {
            writer.string(data.base64EncodedString())
            return
        }
        let outerValueDepth = valueDepth
        valueDepth = base
        defer { valueDepth = outerValueDepth }
        expectingValue = true
        try value.encode(to: self)
        if expectingValue {
            // The value wrote nothing at all: an empty object, as for a struct without properties.
            writer.raw("{}")
            expectingValue = false
        }
        close(downTo: base)
    }

    private func close(downTo depth: Int) {
        while stack.count > depth {
            let frame = stack.removeLast()
            writer.raw(frame.isArray ? "]" : "}")
        }
    }

    private func open(isArray: Bool) -> Int {
        if expectingValue || stack.count <= valueDepth {
            expectingValue = false
            writer.raw(isArray ? "[" : "{")
            stack.append(Frame(isArray: isArray, count: 0))
            return stack.count - 1
        }
        // Another container for a value that already opened one: the same container, once the
        // containers nested in it are closed.
        close(downTo: valueDepth + 1)
        return valueDepth
    }

    /// Prepares the slot for the next value of the container at `depth`: closes deeper
    /// containers, and writes the separator.
    fileprivate func beginElement(at depth: Int) {
        close(downTo: depth + 1)
        if stack[depth].count > 0 { writer.raw(",") }
        stack[depth].count += 1
    }

    fileprivate func encodeValue(_ value: some Encodable) throws {
        try encodeNested(value, base: stack.count)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, depth: open(isArray: false)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: self, depth: open(isArray: true))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        expectingValue = false
        return SingleValueContainer(encoder: self)
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: JSONItemEncoder
        let depth: Int
        var codingPath: [any CodingKey] { [] }

        private func begin(_ key: Key) {
            encoder.beginElement(at: depth)
            encoder.writer.key(key.stringValue)
        }

        mutating func encodeNil(forKey key: Key) throws {
            begin(key)
            encoder.writer.null()
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            begin(key)
            encoder.writer.bool(value)
        }
        mutating func encode(_ value: String, forKey key: Key) throws {
            begin(key)
            encoder.writer.string(value)
        }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            begin(key)
            encoder.writer.number(value)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            begin(key)
            encoder.writer.number(value)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            begin(key)
            encoder.writer.number(value)
        }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws {
            begin(key)
            encoder.writer.number(UInt64(value))
        }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws {
            begin(key)
            encoder.writer.number(value)
        }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            begin(key)
            try encoder.encodeValue(value)
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            // Absent optionals are left out, as JSONEncoder does.
            if let value { try encode(value, forKey: key) }
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            begin(key)
            encoder.expectingValue = true
            return encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            begin(key)
            encoder.expectingValue = true
            return encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            encoder.beginElement(at: depth)
            encoder.writer.key("super")
            encoder.expectingValue = true
            return encoder
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            begin(key)
            encoder.expectingValue = true
            return encoder
        }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: JSONItemEncoder
        let depth: Int
        var codingPath: [any CodingKey] { [] }
        var count: Int { encoder.stack.indices.contains(depth) ? encoder.stack[depth].count : 0 }

        mutating func encodeNil() throws {
            encoder.beginElement(at: depth)
            encoder.writer.null()
        }
        mutating func encode(_ value: Bool) throws {
            encoder.beginElement(at: depth)
            encoder.writer.bool(value)
        }
        mutating func encode(_ value: String) throws {
            encoder.beginElement(at: depth)
            encoder.writer.string(value)
        }
        mutating func encode(_ value: Double) throws {
            encoder.beginElement(at: depth)
            encoder.writer.number(value)
        }
        mutating func encode(_ value: Float) throws {
            encoder.beginElement(at: depth)
            encoder.writer.number(value)
        }
        mutating func encode(_ value: Int) throws {
            encoder.beginElement(at: depth)
            encoder.writer.number(value)
        }
        // Every integer type needs its own method: the generic one below would otherwise take
        // them, and their `encode(to:)` comes straight back here through a single-value container.
        mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
        mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
        mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
        mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
        mutating func encode(_ value: UInt) throws { try encode(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
        mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
        mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
        mutating func encode(_ value: UInt64) throws {
            encoder.beginElement(at: depth)
            encoder.writer.number(value)
        }
        mutating func encode(_ value: some Encodable) throws {
            encoder.beginElement(at: depth)
            try encoder.encodeValue(value)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            encoder.beginElement(at: depth)
            encoder.expectingValue = true
            return encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            encoder.beginElement(at: depth)
            encoder.expectingValue = true
            return encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            encoder.beginElement(at: depth)
            encoder.expectingValue = true
            return encoder
        }
    }

    private struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: JSONItemEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { encoder.writer.null() }
        mutating func encode(_ value: Bool) throws { encoder.writer.bool(value) }
        mutating func encode(_ value: String) throws { encoder.writer.string(value) }
        mutating func encode(_ value: Double) throws { encoder.writer.number(value) }
        mutating func encode(_ value: Float) throws { encoder.writer.number(value) }
        mutating func encode(_ value: Int) throws { encoder.writer.number(value) }
        // As in the unkeyed container: without these, `Int8(1).encode(to:)` would recurse forever.
        mutating func encode(_ value: Int8) throws { encoder.writer.number(Int(value)) }
        mutating func encode(_ value: Int16) throws { encoder.writer.number(Int(value)) }
        mutating func encode(_ value: Int32) throws { encoder.writer.number(Int(value)) }
        mutating func encode(_ value: Int64) throws { encoder.writer.number(Int(value)) }
        mutating func encode(_ value: UInt) throws { encoder.writer.number(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { encoder.writer.number(Int(value)) }
        mutating func encode(_ value: UInt16) throws { encoder.writer.number(Int(value)) }
        mutating func encode(_ value: UInt32) throws { encoder.writer.number(Int(value)) }
        mutating func encode(_ value: UInt64) throws { encoder.writer.number(value) }
        mutating func encode(_ value: some Encodable) throws { try encoder.encodeValue(value) }
    }
}

extension JSONWriter {
    /// A `Float` as `JSONEncoder` writes it: its own shortest digits (`0.1`), not those of the
    /// `Double` it widens to (`0.10000000149011612`).
    fileprivate mutating func number(_ value: Float) {
        number(Double(value.description) ?? Double(value))
    }
}
