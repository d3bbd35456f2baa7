import Foundation

/// Any JSON value, decoded exactly: integers stay integers, so two documents compare by value
/// (`1` equals `1.0`, key order does not matter, a missing key differs from `null`).
enum JSONValue: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `bytes` as one JSON document, strictly (RFC 8259: no raw control characters in
    /// strings, no trailing commas, nothing after the value).
    ///
    /// A parser of our own: `JSONDecoder` through `try?` per value is very slow in a debug build,
    /// and Linux's `JSONSerialization` drops U+FEFF inside strings, which would hide a lost character.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("trailing bytes") }
        return value
    }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.string(let a), .string(let b)): Array(a.unicodeScalars) == Array(b.unicodeScalars)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.unsigned(let a), .unsigned(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)): Double(a) == b && Double(exactly: a) != nil
        case (.unsigned(let a), .double(let b)), (.double(let b), .unsigned(let a)): Double(exactly: a) == b
        default: false
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var int: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var keys: Set<String> {
        if case .object(let object) = self { return Set(object.keys) }
        return []
    }

    var isNull: Bool { self == .null }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .unsigned(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): value.debugDescription
        case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let object):
            "{" + object.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}

struct JSONShapeError: Error, CustomStringConvertible {
    var description: String
}

/// A strict recursive-descent JSON parser over UTF-8 bytes.
struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: String) -> JSONShapeError {
        let context = String(decoding: bytes[max(0, index - 40)..<min(bytes.count, index + 40)], as: UTF8.self)
        return JSONShapeError(description: "invalid JSON at byte \(index): \(reason) near \(context.debugDescription)")
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func parseValue(depth: Int) throws -> JSONValue {
        guard depth < 512 else { throw error("too deep") }
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var object: [String: JSONValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected :") }
                index += 1
                guard object[key] == nil else { throw error("duplicate key \(key.debugDescription)") }
                object[key] = try parseValue(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw error("unterminated object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(object)
                } else {
                    throw error("expected , or }")
                }
            }
        case UInt8(ascii: "["):
            index += 1
            var array: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(array)
            }
            while true {
                array.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unterminated array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(array)
                } else {
                    throw error("expected , or ]")
                }
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default:
            return try parseNumber()
        }
    }

    private mutating func expect(_ word: String) throws {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<(index + utf8.count)]) == utf8 else { throw error("expected \(word)") }
        index += utf8.count
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > digitsStart else { throw error("expected a value") }
        guard bytes[digitsStart] != UInt8(ascii: "0") || index - digitsStart == 1 else { throw error("leading zero") }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fraction = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > fraction else { throw error("expected digits after .") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponent = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > exponent else { throw error("expected exponent digits") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .integer(integer) }
        if isInteger, let unsigned = UInt64(text) { return .unsigned(unsigned) }
        guard let double = Double(text) else { throw error("bad number \(text)") }
        return .double(double)
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("short \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("bad hex digit")
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private mutating func parseString() throws -> String {
        index += 1  // the opening quote
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: utf8, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
                return string
            case 0x00..<0x20:
                throw error("raw control character 0x\(String(byte, radix: 16)) in a string")
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("lone high surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("bad low surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("lone surrogate") }
                    utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw error("bad escape")
                }
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }
}

extension JSONValue {
    /// The value under `key` of an object, which must be there (possibly null).
    func field(_ key: String) throws -> JSONValue {
        guard case .object(let object) = self else { throw JSONShapeError(description: "not an object: \(self)") }
        guard let value = object[key] else { throw JSONShapeError(description: "no \"\(key)\" in \(self)") }
        return value
    }

    func string(_ key: String) throws -> String {
        guard let value = try field(key).string else { throw JSONShapeError(description: "\"\(key)\" is not a string in \(self)") }
        return value
    }

    func optionalString(_ key: String) throws -> String? {
        let value = try field(key)
        if value.isNull { return nil }
        guard let string = value.string else { throw JSONShapeError(description: "\"\(key)\" is not a string or null in \(self)") }
        return string
    }

    func int(_ key: String) throws -> Int {
        guard let value = try field(key).int else { throw JSONShapeError(description: "\"\(key)\" is not an integer in \(self)") }
        return value
    }

    func optionalInt(_ key: String) throws -> Int? {
        let value = try field(key)
        if value.isNull { return nil }
        guard let int = value.int else { throw JSONShapeError(description: "\"\(key)\" is not an integer or null in \(self)") }
        return int
    }

    func bool(_ key: String) throws -> Bool {
        guard case .bool(let value) = try field(key) else { throw JSONShapeError(description: "\"\(key)\" is not a boolean in \(self)") }
        return value
    }

    func array(_ key: String) throws -> [JSONValue] {
        guard let value = try field(key).array else { throw JSONShapeError(description: "\"\(key)\" is not an array in \(self)") }
        return value
    }
}

/// A list's JSON, as documented in JSONListBody.swift and the README; every key must be present.
struct ListJSON {
    struct Meta: Equatable {
        var offset: Int
        var limit: Int
        var total: Int
        var maxLimit: Int?
        var requestedLimit: Int?
        var limitClamped: Bool
    }

    struct Links {
        var current: String
        var first: String
        var prev: String?
        var next: String?
    }

    struct Section {
        var index: Int
        var id: String
        var header: String?
        var footer: String?
        var rows: [Row]
    }

    struct Row {
        var id: String
        var cell: String
        var href: String?
        /// The row's item, when it has one (the key is left out otherwise).
        var item: JSONValue?
    }

    struct Banner {
        var style: String
        var message: String
    }

    var title: String
    var list: String
    var alert: Banner?
    var meta: Meta
    var links: Links
    var sections: [Section]

    /// Every row of every section, in order.
    var rows: [Row] { sections.flatMap(\.rows) }

    init(parsing bytes: [UInt8]) throws {
        let json = try JSONValue.parse(bytes)
        title = try json.string("title")
        list = try json.string("list")
        if json.keys.contains("alert") {
            let alert = try json.field("alert")
            self.alert = Banner(style: try alert.string("style"), message: try alert.string("message"))
        }
        let meta = try json.field("meta")
        self.meta = Meta(
            offset: try meta.int("offset"), limit: try meta.int("limit"), total: try meta.int("total"),
            maxLimit: try meta.optionalInt("maxLimit"), requestedLimit: try meta.optionalInt("requestedLimit"),
            limitClamped: try meta.bool("limitClamped"))
        let links = try json.field("links")
        self.links = Links(
            current: try links.string("self"), first: try links.string("first"), prev: try links.optionalString("prev"),
            next: try links.optionalString("next"))
        sections = try json.array("sections").map { section in
            Section(
                index: try section.int("index"), id: try section.string("id"), header: try section.optionalString("header"),
                footer: try section.optionalString("footer"),
                rows: try section.array("rows").map { row in
                    Row(
                        id: try row.string("id"), cell: try row.string("cell"), href: try row.optionalString("href"),
                        item: row.keys.contains("item") ? try row.field("item") : nil)
                })
        }
    }
}

/// A row's detail as JSON (`/{list}/{id}.json`).
struct DetailJSON {
    struct Field {
        var label: String
        var value: String
    }

    struct Links {
        var current: String
        var list: String
    }

    var id: String
    var title: String
    var cell: String
    var fields: [Field]
    var item: JSONValue?
    var links: Links

    init(parsing bytes: [UInt8]) throws {
        let json = try JSONValue.parse(bytes)
        id = try json.string("id")
        title = try json.string("title")
        cell = try json.string("cell")
        fields = try json.array("fields").map { Field(label: try $0.string("label"), value: try $0.string("value")) }
        item = json.keys.contains("item") ? try json.field("item") : nil
        let links = try json.field("links")
        self.links = Links(current: try links.string("self"), list: try links.string("list"))
    }
}

/// The error shape of JSON clients: `{"error": {"status", "message", "requestID"}}`.
struct ErrorJSON {
    struct Body {
        var status: Int
        var message: String
        var requestID: String
    }

    var error: Body

    init(parsing bytes: [UInt8]) throws {
        let error = try JSONValue.parse(bytes).field("error")
        self.error = Body(status: try error.int("status"), message: try error.string("message"), requestID: try error.string("requestID"))
    }
}
