/// Types whose JSON is not what their `Codable` conformance writes, written their own way before
/// it is asked: Cellar's are Foundation's `Date`, `URL`, `Decimal` and `Data` (this module does
/// not know Foundation).
public protocol JSONSpecialValues {
    /// Writes `value` and returns true when it is one of these types; returns false, writing
    /// nothing, for any other.
    static func write<Value: Encodable>(_ value: Value, into writer: inout JSONWriter) -> Bool
}

/// Encodes `Encodable` values straight into a ``JSONWriter``: Codable without `JSONEncoder`,
/// without an intermediate tree, and with the writer's escaping.
///
/// Codable containers have no "end" call, so the encoder keeps a stack of open objects and
/// arrays and closes the deeper ones as soon as a shallower container writes again, and all of
/// them when the value is done. One encoder serves a whole response.
///
/// Non-finite numbers are written as `null`; the ``JSONSpecialValues`` it is given write their
/// types their own way.
public final class JSONItemEncoder: Encoder {
    private struct Frame {
        let isArray: Bool
        var count: Int
    }

    // State of one value's encoding, used by one thread: no run-time exclusivity checks (the
    // accesses hold calls, so the optimiser cannot prove them exclusive itself).
    /// The caller's writer, lent for one ``encode(_:into:)``.
    @exclusivity(unchecked) fileprivate var writer = JSONWriter()
    @exclusivity(unchecked) private var stack: [Frame] = []
    /// Whether the next container or single value fills a slot that was just opened (a key or an array position).
    @exclusivity(unchecked) private var expectingValue = false
    /// Where the container of the value being encoded sits in `stack`: a second `container(keyedBy:)`
    /// for the same value (a subclass after `super.encode(to: encoder)`) writes into that one.
    @exclusivity(unchecked) private var valueDepth = 0

    private let specialValues: (any JSONSpecialValues.Type)?

    /// An encoder whose `specialValues`, if any, write their types before `Codable` is asked.
    public init(specialValues: (any JSONSpecialValues.Type)? = nil) {
        self.specialValues = specialValues
    }

    public var codingPath: [any CodingKey] { [] }
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Writes `value` as one JSON value at the end of `json`.
    public func encode(_ value: some Encodable, into json: inout JSONWriter) throws {
        swap(&writer, &json)
        defer {
            swap(&writer, &json)
            stack.removeAll(keepingCapacity: true)
            expectingValue = false
            valueDepth = 0
        }
        try encodeNested(value, base: 0)
    }

    private func encodeNested<Value: Encodable>(_ value: Value, base: Int) throws {
        if let specialValues, specialValues.write(value, into: &writer) { return }
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

    public func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, depth: open(isArray: false)))
    }

    public func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: self, depth: open(isArray: true))
    }

    public func singleValueContainer() -> any SingleValueEncodingContainer {
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

        mutating func encodeNil(forKey key: Key) throws { begin(key); encoder.writer.null() }
        mutating func encode(_ value: Bool, forKey key: Key) throws { begin(key); encoder.writer.bool(value) }
        mutating func encode(_ value: String, forKey key: Key) throws { begin(key); encoder.writer.string(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { begin(key); encoder.writer.number(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { begin(key); encoder.writer.number(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { begin(key); encoder.writer.number(value) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { begin(key); encoder.writer.number(UInt64(value)) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { begin(key); encoder.writer.number(value) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws { begin(key); try encoder.encodeValue(value) }
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

        mutating func encodeNil() throws { encoder.beginElement(at: depth); encoder.writer.null() }
        mutating func encode(_ value: Bool) throws { encoder.beginElement(at: depth); encoder.writer.bool(value) }
        mutating func encode(_ value: String) throws { encoder.beginElement(at: depth); encoder.writer.string(value) }
        mutating func encode(_ value: Double) throws { encoder.beginElement(at: depth); encoder.writer.number(value) }
        mutating func encode(_ value: Float) throws { encoder.beginElement(at: depth); encoder.writer.number(value) }
        mutating func encode(_ value: Int) throws { encoder.beginElement(at: depth); encoder.writer.number(value) }
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
        mutating func encode(_ value: UInt64) throws { encoder.beginElement(at: depth); encoder.writer.number(value) }
        mutating func encode(_ value: some Encodable) throws { encoder.beginElement(at: depth); try encoder.encodeValue(value) }
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
