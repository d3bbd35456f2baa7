import FoundationEssentials

/// A row as its JSON item: every column under its name, with its SQLite type.
struct DatabaseRowItem: Encodable {
    let names: [String]
    let values: [DatabaseValue]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in zip(names, values) {
            let key = Key(stringValue: name)
            switch value {
            case .null: try container.encodeNil(forKey: key)
            case .integer(let integer): try container.encode(integer, forKey: key)
            case .real(let real): if real.isFinite { try container.encode(real, forKey: key) } else { try container.encodeNil(forKey: key) }
            case .text(let text): try container.encode(text, forKey: key)
            case .blob(let bytes):
                var nested = container.nestedContainer(keyedBy: Key.self, forKey: key)
                try nested.encode(bytes.withUnsafeBufferPointer { DatabaseListController.base64($0) }, forKey: Key(stringValue: "$base64"))
            }
        }
    }
}

/// A blob as the JSON and the CSV write it: standard base64.
func base64Text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    Data(buffer: bytes).base64EncodedString()
}
