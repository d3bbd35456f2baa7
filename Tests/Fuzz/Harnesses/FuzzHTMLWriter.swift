// libFuzzer target: HTMLWriter (Sources/ByteWriters/HTMLWriter.swift, HTMLWriter+URL.swift, HTMLWriter+Numbers.swift).
//
// Properties, for any string s:
// - text(s), text(Substring), attribute(_:_:): the output holds no `<`, `>`, `"`, `'`, and
//   every `&` starts one of the five entities; decoded as HTML text it gives back s with the
//   code points HTML forbids (controls but tab, LF, FF, CR; DEL; C1; noncharacters) as U+FFFD,
//   and newlines normalised as an HTML parser does (CR LF and CR become LF);
// - urlAttribute(_:_:) writes nothing or ` href="…"`; when it writes, neither s nor the value a
//   browser reads back (entities decoded) has a scheme, after the URL parser's stripping, other
//   than http, https or mailto; the value holds no raw `"`, `<`, `>`, space, control or non-ASCII
//   byte, and its `&` are entities; isSafeURL(s) agrees with what was written;
// - pathSegment(s) writes only unreserved characters and `%XX`, and decodes back to s;
// - text(Int) and text(grouping:) of the integer read from the first 8 bytes match String(n).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLWriter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    checkHTMLWriter(bytes)
    return 0
}

func checkHTMLWriter(_ bytes: [UInt8]) {
    let input = String(decoding: bytes, as: UTF8.self)
    let expected = htmlNewlines(Array(input.unicodeScalars.map { isForbiddenInHTML($0) ? "\u{FFFD}" : $0 }))

    var writer = HTMLWriter()
    writer.text(input)
    checkEscapedText(writer.bytes, expected, input)

    // A substring that does not start at the string's start.
    if !input.isEmpty {
        let tail = input.dropFirst()
        var sub = HTMLWriter()
        sub.raw("<p>")
        sub.text(tail)
        let body = Array(sub.bytes.dropFirst(3))
        checkEscapedText(body, htmlNewlines(Array(String(tail).unicodeScalars.map { isForbiddenInHTML($0) ? "\u{FFFD}" : $0 })), String(tail))
    }

    var attribute = HTMLWriter()
    attribute.attribute("title", input)
    let prefix = Array(" title=\"".utf8)
    require(Array(attribute.bytes.prefix(prefix.count)) == prefix && attribute.bytes.last == UInt8(ascii: "\""), "attribute frame for \(show(input))")
    checkEscapedText(Array(attribute.bytes.dropFirst(prefix.count).dropLast()), expected, input)

    checkURLAttribute(input)

    var segment = HTMLWriter()
    segment.pathSegment(input)
    var decoded: [UInt8] = []
    var i = 0
    let written = segment.bytes
    while i < written.count {
        let byte = written[i]
        if byte == UInt8(ascii: "%") {
            require(i + 2 < written.count && isHexDigit(written[i + 1]) && isHexDigit(written[i + 2]), "pathSegment escape in \(show(written))")
            decoded.append(hexValue(written[i + 1]) * 16 + hexValue(written[i + 2]))
            i += 3
        } else {
            let unreserved =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-._~".utf8.contains(byte)
            require(unreserved, "pathSegment wrote \(show([byte])) for \(show(input))")
            decoded.append(byte)
            i += 1
        }
    }
    require(decoded == Array(input.utf8), "pathSegment of \(show(input)) decodes to \(show(decoded))")

    if bytes.count >= 8 {
        let number = bytes.prefix(8).reduce(0) { ($0 << 8) | Int($1) }
        var plain = HTMLWriter()
        plain.text(number)
        require(plain.string == String(number), "text(\(number)) wrote \(plain.string)")
        var grouped = HTMLWriter()
        grouped.text(grouping: number)
        require(grouped.string.filter { $0 != "," } == String(number), "text(grouping: \(number)) wrote \(grouped.string)")
        let digits = String(number.magnitude)
        var reference = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { reference.append(",") }
            reference.append(digit)
        }
        require(grouped.string == (number < 0 ? "-" : "") + reference, "text(grouping: \(number)) wrote \(grouped.string)")
    }
}

/// Code points HTML forbids in a document, which HTMLWriter documents it writes as U+FFFD.
func isForbiddenInHTML(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    if v < 0x20 { return !(v == 0x09 || v == 0x0A || v == 0x0C || v == 0x0D) }
    if (0x7F...0x9F).contains(v) { return true }
    if (0xFDD0...0xFDEF).contains(v) { return true }
    return v & 0xFFFE == 0xFFFE
}

/// An HTML parser's input preprocessing: CR LF → LF, then CR → LF.
func htmlNewlines(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var out: [Unicode.Scalar] = []
    var i = 0
    while i < scalars.count {
        if scalars[i] == "\r" {
            out.append("\n")
            if i + 1 < scalars.count && scalars[i + 1] == "\n" { i += 1 }
        } else {
            out.append(scalars[i])
        }
        i += 1
    }
    return out
}

let entities: [(String, Unicode.Scalar)] = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'")]

/// Decodes escaped text as an HTML parser would, refusing anything but the five entities.
func decodeHTMLText(_ written: [UInt8], _ input: String) -> [Unicode.Scalar] {
    for byte in [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'")] {
        require(!written.contains(byte), "escaped \(show(input)) holds a raw \(show([byte])): \(show(written))")
    }
    guard let text = String(validating: written, as: UTF8.self) else {
        require(false, "escaped \(show(input)) is not UTF-8: \(show(written))")
        return []
    }
    // Scalars, not Characters: a combining mark after `;` must not hide an entity.
    let scalars = Array(text.unicodeScalars)
    var out: [Unicode.Scalar] = []
    var i = 0
    while i < scalars.count {
        if scalars[i] == "&" {
            guard let (entity, scalar) = entities.first(where: { scalars[i...].starts(with: $0.0.unicodeScalars) }) else {
                require(false, "escaped \(show(input)) holds a bare & : \(show(written))")
                return []
            }
            out.append(scalar)
            i += entity.unicodeScalars.count
        } else {
            out.append(scalars[i])
            i += 1
        }
    }
    return htmlNewlines(out)
}

func checkEscapedText(_ written: [UInt8], _ expected: [Unicode.Scalar], _ input: String) {
    let decoded = decodeHTMLText(written, input)
    require(decoded == expected, "\(show(input)) escaped as \(show(written)) decodes to \(show(String(String.UnicodeScalarView(decoded))))")
}

/// The scheme a browser's URL parser finds (lowercased), or nil for a relative reference.
func browserScheme(_ url: [UInt8]) -> String? {
    var bytes = url
    // Strip leading and trailing C0 controls and spaces, then every tab and newline.
    while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
    while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
    bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    guard let first = bytes.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) else { return nil }
    var scheme: [UInt8] = []
    for byte in bytes {
        if byte == UInt8(ascii: ":") { return String(decoding: scheme, as: UTF8.self).lowercased() }
        let schemeByte = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "+-.".utf8.contains(byte)
        guard schemeByte else { return nil }
        scheme.append(byte)
    }
    return nil
}

func checkURLAttribute(_ input: String) {
    var writer = HTMLWriter()
    writer.raw("<a")
    let wrote = writer.urlAttribute("href", input)
    let out = Array(writer.bytes.dropFirst(2))
    require(wrote == !out.isEmpty, "urlAttribute returned \(wrote) but wrote \(out.count) bytes for \(show(input))")
    require(wrote == HTMLWriter.isSafeURL(input), "isSafeURL disagrees with urlAttribute for \(show(input))")
    guard wrote else { return }
    let prefix = Array(" href=\"".utf8)
    require(out.count > prefix.count && Array(out.prefix(prefix.count)) == prefix && out.last == UInt8(ascii: "\""), "frame \(show(out))")
    let value = Array(out.dropFirst(prefix.count).dropLast())
    for byte in value {
        require(
            byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">"),
            "urlAttribute wrote \(show([byte])) for \(show(input)): \(show(value))")
    }
    // What the browser reads: the attribute value with its character references decoded.
    var url: [UInt8] = []
    var i = 0
    while i < value.count {
        if value[i] == UInt8(ascii: "&") {
            guard let (entity, scalar) = entities.first(where: { value[i...].starts(with: $0.0.utf8) }) else {
                require(false, "bare & in \(show(value)) for \(show(input))")
                return
            }
            url.append(UInt8(scalar.value))
            i += entity.utf8.count
        } else {
            url.append(value[i])
            i += 1
        }
    }
    let allowed: Set<String> = ["http", "https", "mailto"]
    if let scheme = browserScheme(Array(input.utf8)) {
        require(allowed.contains(scheme), "wrote a \(scheme): URL for \(show(input))")
    }
    if let scheme = browserScheme(url) {
        require(allowed.contains(scheme), "the browser reads a \(scheme): URL from \(show(value)) (input \(show(input)))")
    }
}
