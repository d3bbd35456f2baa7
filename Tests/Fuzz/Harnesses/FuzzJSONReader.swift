// libFuzzer target: JSONReader (Sources/ByteWriters/JSONReader.swift, +Strings, +Numbers), the
// reader of the JSON write API's bodies.
//
// Properties, for any bytes:
// - reading never traps: the bytes are one document, or a JSONReader.Failure says where they
//   stop being one (an offset within the bytes);
// - a document that was read, written again by JSONWriter (its strings escaped by the writer,
//   its numbers as written there), reads back to the same values.

import ByteWriters

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    checkJSONReader(bytes)
    return 0
}

/// A document's values, as the reader gives them.
indirect enum Value: Equatable {
    case object([String: Value])
    case array([Value])
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case null

    /// Equal as values: an integer and a real of the same value are one number (the writer writes
    /// an integral real as an integer).
    func same(as other: Value) -> Bool {
        switch (self, other) {
        case (.object(let a), .object(let b)): a.count == b.count && a.allSatisfy { key, value in b[key].map(value.same) ?? false }
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.same(as: $1) }
        case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): Double(a) == b
        default: self == other
        }
    }
}

func readValue(_ json: inout JSONReader) throws -> Value {
    switch try json.peek() {
    case .object:
        var members: [String: Value] = [:]
        try json.readObject { json, name in members[name] = try readValue(&json) }
        return .object(members)
    case .array:
        var elements: [Value] = []
        try json.readArray { json, _ in elements.append(try readValue(&json)) }
        return .array(elements)
    case .string: return .string(try json.readString())
    case .number:
        switch try json.readNumber() {
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        }
    case .bool: return .bool(try json.readBool())
    case .null:
        try json.readNull()
        return .null
    }
}

func readDocument(_ bytes: [UInt8]) -> Result<Value, JSONReader.Failure> {
    var json = JSONReader(bytes)
    do {
        let value = try readValue(&json)
        try json.finish()
        return .success(value)
    } catch let failure as JSONReader.Failure {
        return .failure(failure)
    } catch {
        require(false, "not a reader's failure: \(error) from \(show(bytes))")
        fatalError()
    }
}

func write(_ value: Value, into json: inout JSONWriter) {
    switch value {
    case .object(let members):
        json.raw("{")
        for (index, (name, member)) in members.enumerated() {
            if index > 0 { json.raw(",") }
            json.key(name)
            write(member, into: &json)
        }
        json.raw("}")
    case .array(let elements):
        json.raw("[")
        for (index, element) in elements.enumerated() {
            if index > 0 { json.raw(",") }
            write(element, into: &json)
        }
        json.raw("]")
    case .string(let string): json.string(string)
    case .integer(let integer): json.number(Int(integer))
    case .real(let real): json.number(real)
    case .bool(let bool): json.bool(bool)
    case .null: json.null()
    }
}

func checkJSONReader(_ bytes: [UInt8]) {
    switch readDocument(bytes) {
    case .failure(let failure):
        require(failure.offset >= 0 && failure.offset <= bytes.count, "offset \(failure.offset) of \(bytes.count) bytes: \(show(bytes))")
    case .success(let value):
        var json = JSONWriter()
        write(value, into: &json)
        guard case .success(let again) = readDocument(json.bytes) else {
            require(false, "written again, \(show(json.bytes)) does not read; from \(show(bytes))")
            return
        }
        require(again.same(as: value), "written again, \(show(json.bytes)) reads otherwise; from \(show(bytes))")
    }
}
