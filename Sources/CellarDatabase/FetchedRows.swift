/// The rows of one fetched page: every value in one array, and the bytes of every text and blob
/// in one buffer, so a page of a hundred rows is two allocations, not one per value.
struct FetchedRows {
    /// One value as fetched; text and blobs are ranges of ``bytes``.
    enum Value {
        case null
        case integer(Int64)
        case real(Double)
        case text(Range<Int>)
        case blob(Range<Int>)
    }

    let columnCount: Int
    private(set) var values: [Value] = []
    private(set) var bytes: [UInt8] = []

    init(columnCount: Int, expectedRows: Int = 0) {
        self.columnCount = columnCount
        values.reserveCapacity(columnCount * expectedRows)
        bytes.reserveCapacity(64 * columnCount * expectedRows)
    }

    var count: Int { columnCount == 0 ? 0 : values.count / columnCount }

    func value(row: Int, column: Int) -> Value {
        values[row * columnCount + column]
    }

    /// Appends the statement's current row (its first ``columnCount`` columns). Text that is not
    /// valid UTF-8 (SQLite does not check) is stored with U+FFFD in place of the bad bytes, so
    /// every page and JSON document stays well-formed.
    mutating func append(from statement: SQLiteStatement) {
        for column in 0..<columnCount {
            switch statement.columnType(column) {
            case .null:
                values.append(.null)
            case .integer:
                values.append(.integer(statement.int64(column)))
            case .real:
                values.append(.real(statement.double(column)))
            case .text:
                statement.withText(column) { appendText($0) }
            case .blob:
                let start = bytes.count
                if case .blob(let blob) = statement.value(column) { bytes.append(contentsOf: blob) }
                values.append(.blob(start..<bytes.count))
            }
        }
    }

    /// Appends one value: a text's UTF-8 (checked as a statement's is) or a blob's bytes go into ``bytes``.
    mutating func append(_ value: DatabaseValue) {
        switch value {
        case .null: values.append(.null)
        case .integer(let integer): values.append(.integer(integer))
        case .real(let real): values.append(.real(real))
        case .text(let text):
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            values.append(.text(start..<bytes.count))
        case .blob(let blob):
            let start = bytes.count
            bytes.append(contentsOf: blob)
            values.append(.blob(start..<bytes.count))
        }
    }

    /// Appends a text value from its bytes, U+FFFD in place of any that are not UTF-8.
    mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
        let start = bytes.count
        if Self.isASCII(text) || String(validating: text, as: UTF8.self) != nil {
            bytes.append(contentsOf: text)
        } else {
            bytes.append(contentsOf: String(decoding: text, as: UTF8.self).utf8)
        }
        values.append(.text(start..<bytes.count))
    }

    /// Whether every byte is below 0x80, tested eight at a time.
    static func isASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= text.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < text.count {
            if text[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// Drops the last row (the look-ahead row that tells whether a next page exists).
    mutating func removeLastRow() {
        guard count > 0 else { return }
        values.removeLast(columnCount)
    }

    /// Lends a text's or blob's bytes.
    func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// A value as a ``DatabaseValue`` (for cursors and lookups; allocates for text).
    func databaseValue(row: Int, column: Int) -> DatabaseValue {
        switch value(row: row, column: column) {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let range): .text(String(decoding: bytes[range], as: UTF8.self))
        case .blob(let range): .blob(Array(bytes[range]))
        }
    }

    /// A value as display text: NULL as nil, numbers in decimal, blobs described by their size.
    func string(row: Int, column: Int) -> String? {
        switch value(row: row, column: column) {
        case .null: nil
        case .integer(let integer): String(integer)
        case .real(let real): DatabaseValue.text(for: real)
        case .text(let range): String(decoding: bytes[range], as: UTF8.self)
        case .blob(let range): "(\(range.count)-byte blob)"
        }
    }
}

extension DatabaseValue {
    /// A real as a page shows it: `1.5`, `3.0`, `1e+300`.
    static func text(for real: Double) -> String {
        DecimalText.text(real)
    }
}
