import ByteWriters
import Foundation
import Showcase
import Testing

@testable import Cellar

/// The in-house `Encoder` writes the same JSON as Foundation's `JSONEncoder` (compared as parsed
/// values), with `Date` as ISO 8601 and stricter escaping (`<`, `>`, `&`, `'`, U+2028, U+2029).
@Suite struct JSONItemEncoderTests {
    static func ours(_ value: some Encodable) throws -> [UInt8] {
        var json = JSONWriter()
        try JSONItemEncoder(specialValues: FoundationJSONValues.self).encode(value, into: &json)
        return json.takeBytes()
    }

    static func foundation(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return Array(try encoder.encode(value))
    }

    /// Encodes `value` both ways and compares the parsed documents.
    static func expectSame(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ourBytes = try ours(value)
        let theirs = try JSONValue.parse(try foundation(value))
        let parsed = try #require(
            try? JSONValue.parse(ourBytes), "valid JSON: \(String(decoding: ourBytes, as: UTF8.self))", sourceLocation: sourceLocation)
        #expect(parsed == theirs, "ours: \(String(decoding: ourBytes, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    // MARK: Values

    struct Address: Encodable {
        var street: String
        var city: String
        var postcode: String?
    }

    struct Customer: Encodable {
        var name: String
        var address: Address
        var previous: [Address]
    }

    struct Line: Encodable {
        var sku: String
        var quantity: Int
        var price: Double
    }

    struct Order: Encodable {
        var id: Int
        var customer: Customer
        var lines: [Line]
        var note: String?
        var tags: [String]
        var paid: Bool
        var discount: Double?
        var ratings: [Int?]
        var matrix: [[Int]]
        var empty: [Line]
    }

    static let order = Order(
        id: 42,
        customer: Customer(
            name: "Ada", address: Address(street: "1 Cellar Lane", city: "Bordeaux", postcode: nil),
            previous: [Address(street: "2 Old Road", city: "Mâcon", postcode: "71000"), Address(street: "", city: "", postcode: "")]),
        lines: [Line(sku: "barolo", quantity: 2, price: 74.5), Line(sku: "comte", quantity: 1, price: 32)], note: nil, tags: ["gift", ""],
        paid: true, discount: 0.1, ratings: [5, nil, 3], matrix: [[1, 2], [], [3]], empty: [])

    @Test func nestedStructsAndArraysOfStructs() throws {
        try Self.expectSame(Self.order)
        try Self.expectSame(Self.order.lines)
        try Self.expectSame([Self.order, Self.order])
        try Self.expectSame(Self.order.customer)
    }

    @Test func nilOptionalsAreLeftOut() throws {
        let json = try JSONValue.parse(try Self.ours(Self.order))
        #expect(!json.keys.contains("note"))
        #expect(json.keys.contains("discount"))
        #expect(!(json["customer"]?["address"]?.keys.contains("postcode") ?? true))
        // Inside arrays, nil stays a null.
        #expect(json["ratings"] == .array([.integer(5), .null, .integer(3)]))
        struct AllNil: Encodable {
            var a: Int?
            var b: String?
            var c: [Int]?
            var d: Address?
        }
        #expect(try Self.ours(AllNil()) == Array("{}".utf8))
        try Self.expectSame(AllNil())
        try Self.expectSame(AllNil(a: 1, b: nil, c: [], d: Address(street: "s", city: "c")))
    }

    /// A row kind with associated values, encoded by hand (as the showcase's `SettingsRow`).
    enum Shape: Encodable {
        case circle(radius: Double)
        case rectangle(width: Int, height: Int, label: String?)
        case polygon([Point])
        case none

        struct Point: Encodable {
            var x: Int
            var y: Int
        }

        private enum CodingKeys: String, CodingKey { case kind, radius, size, label, points }
        private enum SizeKeys: String, CodingKey { case width, height }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .circle(let radius):
                try container.encode("circle", forKey: .kind)
                try container.encode(radius, forKey: .radius)
            case .rectangle(let width, let height, let label):
                try container.encode("rectangle", forKey: .kind)
                var size = container.nestedContainer(keyedBy: SizeKeys.self, forKey: .size)
                try size.encode(width, forKey: .width)
                try size.encode(height, forKey: .height)
                try container.encodeIfPresent(label, forKey: .label)
            case .polygon(let points):
                try container.encode("polygon", forKey: .kind)
                var list = container.nestedUnkeyedContainer(forKey: .points)
                for point in points {
                    var pair = list.nestedUnkeyedContainer()
                    try pair.encode(point.x)
                    try pair.encode(point.y)
                }
                try list.encode(points.first ?? Point(x: 0, y: 0))
            case .none:
                try container.encodeNil(forKey: .kind)
            }
        }
    }

    /// The same with the compiler's own `Encodable` (nested keyed containers per case).
    enum Event: Encodable {
        case opened(by: String, at: Int)
        case tasted(String, notes: [String], score: Double?)
        case closed
    }

    @Test func enumsWithAssociatedValues() throws {
        let shapes: [Shape] = [
            .circle(radius: 1.5), .rectangle(width: 2, height: 3, label: nil), .rectangle(width: 0, height: -1, label: "<b>"),
            .polygon([.init(x: 1, y: 2), .init(x: 3, y: 4)]), .polygon([]), .none,
        ]
        for shape in shapes { try Self.expectSame(shape) }
        try Self.expectSame(shapes)
        let events: [Event] = [
            .opened(by: "Ada", at: 7), .tasted("Barolo", notes: ["tar", "roses"], score: nil), .tasted("", notes: [], score: 9.5), .closed,
        ]
        for event in events { try Self.expectSame(event) }
        try Self.expectSame(["events": events])
    }

    @Test func dictionaries() throws {
        try Self.expectSame(["b": 2, "a": 1])
        try Self.expectSame([String: Int]())
        try Self.expectSame(["lines": Self.order.lines, "none": []])
        try Self.expectSame(["outer": ["inner": ["deep": [1, 2, 3]]]])
        try Self.expectSame([1: "one", 2: "two"])
        try Self.expectSame(["<key> & \"quoted\"": "value", "\u{2028}": "separator", "🍷": "wine"])
        try Self.expectSame([["a": 1], [:], ["b": 2]])
    }

    @Test func datesAndURLs() throws {
        struct Stamped: Encodable {
            var at: Date
            var optionalAt: Date?
            var link: URL
            var links: [URL]
            var dates: [Date?]
        }
        let value = Stamped(
            at: Date(timeIntervalSince1970: 1_700_000_000), optionalAt: Date(timeIntervalSince1970: 0),
            link: URL(string: "https://example.com/a%20b?q=<x>&y='z'")!, links: [URL(string: "/relative")!, URL(string: "mailto:a@b.c")!],
            dates: [nil, Date(timeIntervalSince1970: 86_400)])
        try Self.expectSame(value)
        try Self.expectSame(Date(timeIntervalSince1970: 1_234_567_890))
        try Self.expectSame([URL(string: "https://example.com")!])
        let json = try JSONValue.parse(try Self.ours(value))
        #expect(json["at"] == .string("2023-11-14T22:13:20Z"))
        #expect(json["link"] == .string(value.link.absoluteString))
        #expect(json["links"] == .array([.string("/relative"), .string("mailto:a@b.c")]))
    }

    @Test func decimalsAndData() throws {
        struct Priced: Encodable {
            var price: Decimal
            var discount: Decimal?
            var history: [Decimal]
            var thumbnail: Data
            var attachments: [Data]
        }
        let value = Priced(
            price: Decimal(string: "12.50")!, discount: Decimal(string: "-0.001"), history: [0, Decimal(string: "123456789.987654321")!],
            thumbnail: Data([0, 1, 2, 250, 255]), attachments: [Data(), Data("<script>".utf8)])
        try Self.expectSame(value)
        try Self.expectSame(Decimal(string: "3.14")!)
        try Self.expectSame(Data([1, 2, 3]))
        let json = try JSONValue.parse(try Self.ours(value))
        #expect(json["price"] == .double(12.5))
        #expect(json["thumbnail"] == .string("AAEC+v8="))
    }

    @Test func stringEscapes() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let strings = [
            "", "plain", "quote \" and backslash \\ and slash /", controls, "\u{7F}", "line\u{2028}separator\u{2029}paragraph",
            "emoji 🍷🧀👩‍💻🇫🇷", "</script><script>alert(1)</script>", "&amp; 'single' <b>", "\u{FEFF}bom", "\u{10FFFF}", "tab\tnew\nline\rreturn",
            "é (precomposed) e\u{301} (combining)",
        ]
        for string in strings {
            try Self.expectSame(string)
            try Self.expectSame([string: string])
            try Self.expectSame(Line(sku: string, quantity: 0, price: 0))
            // Exactly the same scalars come back.
            let back = try JSONValue.parse(try Self.ours(string))
            #expect(back.string.map { Array($0.unicodeScalars) } == Array(string.unicodeScalars))
        }
        let all = try Self.ours(strings)
        #expect(!all.contains(UInt8(ascii: "<")) && !all.contains(UInt8(ascii: ">")))
        #expect(!all.contains(UInt8(ascii: "&")) && !all.contains(UInt8(ascii: "'")))
        #expect(!all.contains { $0 < 0x20 }, "no raw control characters")
        #expect(!String(decoding: all, as: UTF8.self).unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(String(decoding: try Self.ours("\u{2028}<"), as: UTF8.self) == "\"\\u2028\\u003c\"")
    }

    /// The bidirectional controls are escaped (a JSON viewer or a log would show text reordered)
    /// and come back the same; the characters next to them in the same block are left as they are.
    @Test func bidirectionalControlsAreEscaped() throws {
        for value in (0x202A...0x202E).map({ $0 }) + (0x2066...0x2069).map({ $0 }) {
            let string = "a" + String(Unicode.Scalar(UInt32(value))!) + "b"
            let bytes = try Self.ours(string)
            #expect(String(decoding: bytes, as: UTF8.self) == "\"a\\u\(String(value, radix: 16))b\"")
            try Self.expectSame(string)
        }
        for value in [0x2027, 0x202F, 0x2065, 0x206A, 0x2014] {
            let string = String(Unicode.Scalar(UInt32(value))!)
            #expect(String(decoding: try Self.ours(string), as: UTF8.self) == "\"" + string + "\"")
        }
    }

    @Test func numbers() throws {
        struct Numbers: Encodable {
            var int = Int.min
            var intMax = Int.max
            var int8 = Int8.min
            var int16 = Int16.max
            var int32 = Int32.min
            var int64 = Int64.max
            var uint = UInt.max
            var uint8 = UInt8.max
            var uint16 = UInt16.max
            var uint32 = UInt32.max
            var uint64 = UInt64.max
            var double = 0.1
            var large = 1e300
            var small = -2.5e-300
            var negativeZero = -0.0
            var whole = 3.0
            var float: Float = 0.1
            var floatWhole: Float = 2
            var bool = false
        }
        try Self.expectSame(Numbers())
        try Self.expectSame([0.1, 0.2, 1.0 / 3.0, 1e15, 1e16, 123_456_789.125])
        try Self.expectSame([Float(0.1), Float(1.0 / 3.0), Float(16_777_216)])
    }

    @Test func smallIntegerTypesInArraysAndSingleValues() throws {
        try Self.expectSame([Int8.min, 0, Int8.max])
        try Self.expectSame([UInt8(0), 200, 255])
        try Self.expectSame([Int16.min, Int16.max])
        try Self.expectSame([Int32.min, Int32.max])
        try Self.expectSame([UInt16.max])
        try Self.expectSame([UInt32.max])
        try Self.expectSame([UInt(42)])
        try Self.expectSame(Int8(-5))
        try Self.expectSame(UInt32(7))
        enum Level: UInt8, Encodable { case low = 1, high = 200 }
        try Self.expectSame([Level.low, Level.high])
        try Self.expectSame(["level": Level.high])
    }

    @Test func emptyValues() throws {
        struct Empty: Encodable {}
        try Self.expectSame(Empty())
        try Self.expectSame([Empty(), Empty()])
        try Self.expectSame(["empty": Empty()])
        try Self.expectSame([[Int]]())
        try Self.expectSame([[Int]](repeating: [], count: 3))
        try Self.expectSame(Optional<Int>.none)
        try Self.expectSame([Optional<Empty>.none, Empty()])
    }

    class Animal: Encodable {
        var name = "Rex"
        var tags = ["good", "boy"]
        var toys = ["ball": 1]
        private enum CodingKeys: String, CodingKey { case name, tags, toys }
        private enum ToyKeys: String, CodingKey { case ball }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            // Nested containers that are still open when the subclass asks for its own container.
            var toyContainer = container.nestedContainer(keyedBy: ToyKeys.self, forKey: .toys)
            try toyContainer.encode(toys["ball"] ?? 0, forKey: .ball)
            var tagList = container.nestedUnkeyedContainer(forKey: .tags)
            for tag in tags { try tagList.encode(tag) }
        }
    }

    /// A subclass that adds its keys to the same object after `super.encode(to: encoder)`.
    final class Dog: Animal {
        var breed = "Beagle"
        var owner = Address(street: "1 Kennel Road", city: "Lyon")
        private enum CodingKeys: String, CodingKey { case breed, owner }
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(breed, forKey: .breed)
            try container.encode(owner, forKey: .owner)
        }
    }

    /// A subclass that puts its superclass under `super`.
    final class Cat: Animal {
        var lives = 9
        private enum CodingKeys: String, CodingKey { case lives }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(lives, forKey: .lives)
            try super.encode(to: container.superEncoder())
        }
    }

    @Test func subclassesThatEncodeTheirSuperclass() throws {
        try Self.expectSame(Animal())
        try Self.expectSame(Dog())
        try Self.expectSame([Dog(), Dog()])
        try Self.expectSame(["dog": Dog()])
        try Self.expectSame(Cat())
        try Self.expectSame([Cat()])
    }

    @Test func nonFiniteNumbersBecomeNull() throws {
        #expect(try Self.ours([Double.nan, .infinity, -.infinity, 1]) == Array("[null,null,null,1]".utf8))
        #expect(try Self.ours(["x": Float.nan]) == Array("{\"x\":null}".utf8))
    }

    @Test func oneEncoderWritesManyValuesInOneDocument() throws {
        // As a list response does: one encoder for every row's item, lent the response's writer
        // each time, with the syntax around them written raw.
        let encoder = JSONItemEncoder(specialValues: FoundationJSONValues.self)
        var json = JSONWriter()
        json.raw("[")
        try encoder.encode(Self.order, into: &json)
        json.raw(",")
        try encoder.encode(Shape.polygon([.init(x: 1, y: 1)]), into: &json)
        json.raw(",")
        try encoder.encode(Dog(), into: &json)
        json.raw(",")
        try encoder.encode("last", into: &json)
        json.raw("]")
        let ours = try JSONValue.parse(json.takeBytes())
        let encoderOfFoundation = JSONEncoder()
        let theirs = try JSONValue.parse(
            Array("[".utf8) + Array(try encoderOfFoundation.encode(Self.order)) + Array(",".utf8)
                + Array(try encoderOfFoundation.encode(Shape.polygon([.init(x: 1, y: 1)]))) + Array(",".utf8)
                + Array(try encoderOfFoundation.encode(Dog())) + Array(",\"last\"]".utf8))
        #expect(ours == theirs)
    }

    @Test func theShowcaseItemsEncodeAsJSONEncoderDoes() throws {
        try Self.expectSame(PeopleDirectory.make(count: 40))
        try Self.expectSame(PeopleDirectory.listbench(count: 20))
        try Self.expectSame(SettingsController().sections.flatMap(\.rows))
        try Self.expectSame(["title": "Bottles", "value": "1,284"])
    }
}
