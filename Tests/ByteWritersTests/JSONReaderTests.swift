import ByteWriters
import Foundation
import Testing

/// The JSON reader against RFC 8259 case by case, and against Foundation's `JSONSerialization`
/// on documents made at random from a fixed seed, whole and mutated.
@Suite struct JSONReaderTests {
    /// A document as a tree, read through the reader's pull calls: what the tests compare.
    indirect enum Tree: Equatable, CustomStringConvertible {
        case object([String: Tree])
        case array([Tree])
        case string(String)
        case number(JSONReader.Number)
        case bool(Bool)
        case null

        static func read(_ json: inout JSONReader) throws -> Tree {
            switch try json.peek() {
            case .object:
                var members: [String: Tree] = [:]
                try json.readObject { json, name in members[name] = try read(&json) }
                return .object(members)
            case .array:
                var elements: [Tree] = []
                try json.readArray { json, _ in elements.append(try read(&json)) }
                return .array(elements)
            case .string: return .string(try json.readString())
            case .number: return .number(try json.readNumber())
            case .bool: return .bool(try json.readBool())
            case .null:
                try json.readNull()
                return .null
            }
        }

        static func parse(_ text: String) throws -> Tree { try parse(Array(text.utf8)) }

        static func parse(_ bytes: [UInt8]) throws -> Tree {
            var json = JSONReader(bytes)
            let tree = try read(&json)
            try json.finish()
            return tree
        }

        /// `JSONSerialization`'s reading of a document as a tree; a number is compared by value.
        init(foundation value: Any) {
            switch value {
            case let dictionary as [String: Any]: self = .object(dictionary.mapValues { Tree(foundation: $0) })
            case let array as [Any]: self = .array(array.map { Tree(foundation: $0) })
            case let string as String: self = .string(string)
            case is NSNull: self = .null
            case let number as NSNumber:
                switch String(cString: number.objCType) {
                case "c": self = .bool(number.boolValue)
                case "q", "i", "l", "s": self = .number(.integer(number.int64Value))
                default: self = .number(.real(number.doubleValue))
                }
            default: fatalError("JSONSerialization gave \(type(of: value))")
            }
        }

        /// Equal as values: an integer and a real of the same value are the same number (the two
        /// readers split numbers into kinds differently), and two reals a few ulps apart are the same
        /// (`JSONSerialization` on Linux does not always round a long number to the nearest
        /// `Double`: `-5077634331709935040` comes out an ulp off, `-0.000052445244445244` two; the reader's is Swift's own
        /// `Double(_:)`, which does).
        func sameValue(as other: Tree) -> Bool {
            switch (self, other) {
            case (.object(let a), .object(let b)): a.count == b.count && a.allSatisfy { key, value in b[key].map(value.sameValue) ?? false }
            case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.sameValue(as: $1) }
            case (.number(.integer(let a)), .number(.integer(let b))): a == b
            case (.number(let a), .number(let b)): abs(a.double - b.double) <= 4 * max(a.double.ulp, b.double.ulp)
            default: self == other
            }
        }

        var description: String {
            switch self {
            case .object(let members): "{" + members.map { "\($0.debugDescription): \($1)" }.sorted().joined(separator: ", ") + "}"
            case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
            case .string(let string): string.debugDescription
            case .number(.integer(let integer)): "\(integer)"
            case .number(.real(let real)): "\(real)r"
            case .bool(let bool): "\(bool)"
            case .null: "null"
            }
        }
    }

    static func reason(_ text: String) -> JSONReader.Failure.Reason? {
        reason(Array(text.utf8))
    }

    static func reason(_ bytes: [UInt8]) -> JSONReader.Failure.Reason? {
        do {
            _ = try Tree.parse(bytes)
            return nil
        } catch let failure as JSONReader.Failure {
            return failure.reason
        } catch {
            Issue.record("not a reader's failure: \(error)")
            return nil
        }
    }

    @Test func everyKindOfValue() throws {
        #expect(
            try Tree.parse(#" {"a": [1, -2.5, "x", true, false, null, {}, []], "b": {"c": "d"}} "#)
                == .object([
                    "a": .array([
                        .number(.integer(1)), .number(.real(-2.5)), .string("x"), .bool(true), .bool(false), .null, .object([:]), .array([]),
                    ]),
                    "b": .object(["c": .string("d")]),
                ]))
        #expect(try Tree.parse("\u{FEFF}\t\r\n 7 \n") == .number(.integer(7)))
        #expect(try Tree.parse(#""""#) == .string(""))
    }

    @Test func everyEscape() throws {
        #expect(try Tree.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try Tree.parse(#""\u0041\u00e9\u00E9\u20ac\uFFFF""#) == .string("Aéé€\u{FFFF}"))
        #expect(try Tree.parse(#""\ud83c\udf77 and \uD83C\uDF77""#) == .string("🍷 and 🍷"))
        #expect(try Tree.parse(#""a\u0000b""#) == .string("a\u{0}b"))
        #expect(try Tree.parse("\"raw 🍷 é \u{7F}\"") == .string("raw 🍷 é \u{7F}"))
        #expect(try Tree.parse(#""before \n after é""#) == .string("before \n after é"))
        for refused in [#""\x""#, #""\u12""#, #""\u12G4""#, #""\"#, #""abc"#, "\"tab\tin\"", "\"new\nline\"", "\"\u{0}\""] {
            #expect(Self.reason(refused) == .syntax, "\(refused.debugDescription)")
        }
    }

    @Test func textThatIsNotUTF8IsRefused() {
        let quote = UInt8(ascii: "\"")
        for bytes: [UInt8] in [
            [0xFF], [0xC3], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xF0, 0x9F, 0x8D],
        ] {
            #expect(Self.reason([quote] + bytes + [quote]) == .notUTF8, "\(bytes)")
            #expect(Self.reason(Array("{\"".utf8) + bytes + Array("\": 1}".utf8)) == .notUTF8, "\(bytes) in a name")
            #expect(Self.reason([quote] + Array("\\n".utf8) + bytes + [quote]) == .notUTF8, "\(bytes) after an escape")
        }
        for lone in [#""\ud83c""#, #""\ud83c x""#, #""\udf77""#, #""\ud83c\u0041""#, #""\ud83c\ud83c""#] {
            #expect(Self.reason(lone) == .notUTF8, "\(lone)")
        }
    }

    @Test func numbersByTheGrammar() throws {
        let integers: [(String, Int64)] = [
            ("0", 0), ("-0", 0), ("-0.0", 0), ("0e5", 0), ("0.000", 0), ("42", 42), ("-17", -17), ("1.0", 1), ("1.50e1", 15), ("1e2", 100),
            ("1E+2", 100), ("100e-2", 1), ("12345678901234567.0", 12_345_678_901_234_567), ("9223372036854775807", .max),
            ("-9223372036854775808", .min), ("-9223372036854775808.0", .min), ("922337203685477580.7e1", .max), ("1e18", 1_000_000_000_000_000_000),
        ]
        for (text, value) in integers {
            #expect(try Tree.parse(text) == .number(.integer(value)), "\(text)")
        }
        let reals: [(String, Double)] = [
            ("0.5", 0.5), ("-2.5E-3", -0.0025), ("1e19", 1e19), ("9223372036854775808", 9.223372036854775808e18),
            ("-9223372036854775809", -9.223372036854775809e18), ("1.5", 1.5), ("123456789.123456789", 123456789.123456789),
            ("1e-400", 0), ("9007199254740993.5", 9007199254740993.5),
        ]
        for (text, value) in reals {
            #expect(try Tree.parse(text) == .number(.real(value)), "\(text)")
        }
        for outOfRange in ["1e400", "-1.5e309", "1e99999999999999999999"] {
            #expect(Self.reason(outOfRange) == .numberOutOfRange, "\(outOfRange)")
        }
        for refused in ["01", "-01", "1.", ".5", "+1", "-", "1e", "1e+", "1.e3", "0x10", "1_000", "Infinity", "NaN", "--1", "1.2.3"] {
            #expect(Self.reason(refused) == .syntax, "\(refused)")
        }
    }

    @Test func structureAndTrailingBytes() {
        for refused in [
            "", " ", "{", "}", "[", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{'a':1}", "[1 2]", "1 2", "{} x",
            "[1]]", "tru", "nul", "falsey", "True", "[1]\u{0}", "/* c */ 1",
        ] {
            #expect(Self.reason(refused) == .syntax, "\(refused.debugDescription)")
        }
    }

    @Test func aNameGivenTwiceIsRefusedWhereItIsGiven() {
        let text = #"{"a": 1, "b": {"a": 2}, "a": 3}"#
        #expect(throws: JSONReader.Failure(reason: .duplicateName("a"), offset: 24)) { try Tree.parse(text) }
        #expect(Self.reason(#"{"\u0061": 1, "a": 2}"#) == .duplicateName("a"))
        #expect(Self.reason(#"[{"a": 1}, {"a": 2}]"#) == nil)
    }

    @Test func aNameGivenTwiceIsRefusedInAnObjectOfManyMembers() {
        let names = (0..<40).map { "\"m\($0)\": \($0)" }
        #expect(Self.reason("{" + names.joined(separator: ", ") + "}") == nil)
        for repeated in [0, 15, 16, 39] {
            let text = "{" + names.joined(separator: ", ") + ", \"m\(repeated)\": 0}"
            #expect(Self.reason(text) == .duplicateName("m\(repeated)"))
        }
        let late = "{" + names.joined(separator: ", ") + ", \"late\": 1, \"late\": 2}"
        #expect(Self.reason(late) == .duplicateName("late"))
    }

    @Test func nestingIsLimited() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(Self.reason(deepest) == nil)
        let deeper = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(Self.reason(deeper) == .tooDeep(64))
        let hostile = String(repeating: "{\"a\":[", count: 100_000)
        #expect(Self.reason(hostile) == .tooDeep(64))
    }

    @Test func aFailureSaysWhere() {
        #expect(throws: JSONReader.Failure(reason: .syntax, offset: 6)) { try Tree.parse(#"[1, 2 3]"#) }
        #expect(throws: JSONReader.Failure(reason: .notUTF8, offset: 2)) { try Tree.parse([0x5B, 0x20, 0x22, 0xFF, 0x22, 0x5D]) }
    }

    // MARK: Against JSONSerialization

    /// A generator of random documents, the same for the same seed (SplitMix64).
    struct Documents {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func whitespace() -> String {
            below(4) == 0 ? [" ", "\n", "\t", "\r\n  "][below(4)] : ""
        }

        mutating func document(depth: Int = 0) -> String {
            let kind = depth >= 5 ? 2 + below(5) : below(7)
            switch kind {
            case 0:
                var names = Set<String>()
                let members = (0..<below(6)).compactMap { _ -> String? in
                    let name = string()
                    guard names.insert(name.value).inserted else { return nil }
                    return whitespace() + name.text + whitespace() + ":" + document(depth: depth + 1)
                }
                return whitespace() + "{" + members.joined(separator: ",") + whitespace() + "}" + whitespace()
            case 1:
                let elements = (0..<below(6)).map { _ in document(depth: depth + 1) }
                return whitespace() + "[" + elements.joined(separator: ",") + whitespace() + "]" + whitespace()
            case 2: return whitespace() + string().text + whitespace()
            case 3, 4: return whitespace() + number() + whitespace()
            default: return whitespace() + ["true", "false", "null"][below(3)] + whitespace()
            }
        }

        /// A string as JSON writes it (each character raw or escaped, at random) and its value.
        mutating func string() -> (text: String, value: String) {
            let alphabet: [Unicode.Scalar] = [
                "a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{1F}", "\u{7F}", "é", "€", "\u{FFFF}", "🍷", "\u{10FFFF}", "\u{2028}",
            ]
            var text = "\""
            var value = ""
            for _ in 0..<below(12) {
                let scalar = alphabet[below(alphabet.count)]
                value.unicodeScalars.append(scalar)
                let escaped = scalar.value < 0x20 || scalar == "\"" || scalar == "\\" || below(3) == 0
                if !escaped {
                    text.unicodeScalars.append(scalar)
                } else if let short = ["\"": "\\\"", "\\": "\\\\", "/": "\\/", "\u{8}": "\\b", "\n": "\\n"][Character(scalar)], below(2) == 0 {
                    text += short
                } else {
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16, uppercase: below(2) == 0)
                        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                }
            }
            return (text + "\"", value)
        }

        mutating func number() -> String {
            let sign = below(3) == 0 ? "-" : ""
            switch below(6) {
            case 0: return sign + String(below(1000))
            case 1: return sign + String(next() >> UInt64(below(64)))
            case 2: return sign + String(below(100)) + "." + String(below(1000))
            case 3: return sign + String(1 + below(9)) + ["e", "E"][below(2)] + ["", "+", "-"][below(3)] + String(below(30))
            case 4: return sign + "0." + String(repeating: "0", count: below(5)) + String(below(100_000))
            default: return sign + String(below(10)) + "." + String(below(100)) + "e" + ["", "-"][below(2)] + String(below(300))
            }
        }
    }

    @Test func documentsReadAsJSONSerializationReadsThem() throws {
        var documents = Documents(state: 38)
        for _ in 0..<3000 {
            let text = documents.document()
            let ours = try Tree.parse(text)
            let theirs = Tree(foundation: try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
            #expect(ours.sameValue(as: theirs), "\(text): \(ours) ≠ \(theirs)")
        }
    }

    @Test func mutatedDocumentsNeverCrashAndAgreeWhenBothRead() throws {
        var documents = Documents(state: 8259)
        let structural = Array("{}[]\":,\\0-e.ntf \u{0}".utf8)
        var read = 0
        for _ in 0..<20_000 {
            var bytes = Array(documents.document().utf8)
            for _ in 0...documents.below(3) where !bytes.isEmpty {
                let at = documents.below(bytes.count)
                switch documents.below(5) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: documents.next())
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(structural[documents.below(structural.count)], at: at)
                case 3: bytes.removeSubrange(at...)
                default: bytes.insert(contentsOf: bytes[at...].prefix(documents.below(8)), at: at)
                }
            }
            let ours: Tree?
            do {
                ours = try Tree.parse(bytes)
            } catch is JSONReader.Failure {
                ours = nil
            }
            guard let ours, let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { continue }
            read += 1
            let theirs = Tree(foundation: value)
            #expect(ours.sameValue(as: theirs), "\(String(decoding: bytes, as: UTF8.self)): \(ours) ≠ \(theirs)")
        }
        #expect(read > 1000)
    }
}

extension JSONReader.Number {
    fileprivate var double: Double {
        switch self {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        }
    }
}
