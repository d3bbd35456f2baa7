/// CSV's fields and records as RFC 4180 writes them, for every CSV the server sends (a database
/// table's, a query's, an app list's): fields separated by commas, records ended by CRLF, a field
/// in double quotes (inner ones doubled) when it holds a comma, a quote or a line break, or starts
/// or ends with a space.
///
/// A text field that a spreadsheet would run as a formula — one starting with `=`, `+`, `-`, `@`,
/// a tab or a carriage return — is written with a `'` before it (OWASP's advice against CSV
/// injection), unless the whole text is a plain number (`-12.5`, `+33`): a list's data opened in
/// a spreadsheet is read, never run. Numbers the store holds as numbers are written as they are.
public enum CSVFields {
    /// Appends a text field: as it is, or quoted, or with its `'` (see above).
    public static func appendText<Bytes: BidirectionalCollection>(_ bytes: Bytes, to buffer: inout [UInt8])
    where Bytes.Element == UInt8 {
        let disarmed = startsFormula(bytes) && !isPlainNumber(bytes)
        let needsQuotes =
            bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            || bytes.first == UInt8(ascii: " ") || bytes.last == UInt8(ascii: " ")
        if needsQuotes { buffer.append(UInt8(ascii: "\"")) }
        if disarmed { buffer.append(UInt8(ascii: "'")) }
        if needsQuotes {
            for byte in bytes {
                buffer.append(byte)
                if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            }
            buffer.append(UInt8(ascii: "\""))
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Appends a field that is a number or other text CSV need not quote (digits, base64).
    public static func appendPlain<Bytes: Sequence>(_ bytes: Bytes, to buffer: inout [UInt8]) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// Appends the comma between two fields.
    public static func appendSeparator(to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: ","))
    }

    /// Ends a record (CRLF).
    public static func appendRecordEnd(to buffer: inout [UInt8]) {
        buffer.append(13)
        buffer.append(10)
    }

    /// A record of text fields: a header row.
    public static func appendRecord(_ fields: [String], to buffer: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { appendSeparator(to: &buffer) }
            appendText(Array(field.utf8), to: &buffer)
        }
        appendRecordEnd(to: &buffer)
    }

    /// Whether a spreadsheet would read the text as a formula by its first byte.
    static func startsFormula<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard let first = bytes.first else { return false }
        return first == UInt8(ascii: "=") || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: "@")
            || first == 9 || first == 13
    }

    /// Whether the text is a decimal number and nothing else: a sign, digits, a point and digits,
    /// an exponent (`-12.5`, `+3e8`).
    static func isPlainNumber<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var index = bytes.startIndex
        func skipDigits() -> Int {
            var count = 0
            while index != bytes.endIndex, isDigit(bytes[index]) {
                count += 1
                index = bytes.index(after: index)
            }
            return count
        }
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            index = bytes.index(after: index)
        }
        var digits = skipDigits()
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            digits += skipDigits()
        }
        guard digits > 0 else { return false }
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            if index != bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index = bytes.index(after: index)
            }
            guard skipDigits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}
