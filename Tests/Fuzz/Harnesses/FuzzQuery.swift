// libFuzzer target: QueryItems(parsing:) (Sources/MicroHTTP/QueryItems.swift).
//
// Properties, for any bytes:
// - parsing never traps; a failure is always HTTPError 400;
// - the result equals an independent reference decoder (application/x-www-form-urlencoded:
//   `&` separates, first `=` splits, `+` is a space, `%XX` a byte, malformed escape or non-UTF-8 → error);
// - the String and the byte entry points agree;
// - `percentEncoded` is pure ASCII from a safe alphabet and parses back to the same items;
// - `set(_:to:)` replaces exactly the items with that name and leaves the others in order.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    checkQuery(bytes)
    return 0
}

func checkQuery(_ bytes: [UInt8]) {
    let expected = referenceQuery(bytes)
    let parsed: QueryItems?
    do {
        parsed = try QueryItems(parsing: bytes)
    } catch {
        require(error.status == .badRequest, "status \(error.status) for \(show(bytes))")
        parsed = nil
    }
    switch (parsed, expected) {
    case (nil, nil):
        break
    case (let parsed?, let expected?):
        let got = parsed.map { [$0.name, $0.value] }
        require(got == expected.map { [$0.0, $0.1] }, "\(show(bytes)): got \(got), reference \(expected)")
    default:
        require(false, "\(show(bytes)): parser \(parsed == nil ? "refused" : "accepted"), reference \(expected == nil ? "refuses" : "accepts")")
    }

    // The String entry point agrees whenever the bytes are a string.
    if let string = String(validating: bytes, as: UTF8.self) {
        let fromString = try? QueryItems(parsing: string)
        require(fromString == parsed, "String and byte entry points disagree on \(show(bytes))")
    }

    guard var items = parsed else { return }
    let encoded = items.percentEncoded
    for byte in encoded.utf8 {
        let safe =
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || "-._~+%=&".utf8.contains(byte)
        require(safe, "percentEncoded wrote \(show([byte])) for \(show(bytes))")
    }
    let reparsed = try? QueryItems(parsing: encoded)
    require(reparsed == items, "\(show(bytes)) → \(encoded) does not parse back")
    require(items.description == encoded, "description differs from percentEncoded")

    // set(_:to:) on the first name (or a fresh one).
    let name = items.first { _ in true }?.name ?? "fuzz"
    let others = items.filter { $0.name != name }.map { [$0.name, $0.value] }
    items.set(name, to: "v")
    require(items.values(for: name) == ["v"] && items[name] == "v", "set(\(show(name))) left \(items.values(for: name))")
    require(items.filter { $0.name != name }.map { [$0.name, $0.value] } == others, "set(\(show(name))) disturbed other names")
    items.set(name, to: nil)
    require(items.values(for: name).isEmpty && items[name] == nil, "set(\(show(name)), to: nil) left values")
    require(items.map { [$0.name, $0.value] } == others, "set(to: nil) disturbed other names")
    require(items.count == others.count && items.isEmpty == others.isEmpty, "count after set(to: nil)")
}

/// application/x-www-form-urlencoded, written independently: nil when an escape is malformed
/// or a decoded name or value is not UTF-8.
func referenceQuery(_ bytes: [UInt8]) -> [(String, String)]? {
    var result: [(String, String)] = []
    var pieces: [[UInt8]] = [[]]
    for byte in bytes {
        if byte == UInt8(ascii: "&") { pieces.append([]) } else { pieces[pieces.count - 1].append(byte) }
    }
    for piece in pieces where !piece.isEmpty {
        var name = piece
        var value: [UInt8] = []
        if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
            name = Array(piece[..<equals])
            value = Array(piece[(equals + 1)...])
        }
        guard let decodedName = referenceDecode(name), let decodedValue = referenceDecode(value) else { return nil }
        result.append((decodedName, decodedValue))
    }
    return result
}

func referenceDecode(_ bytes: [UInt8]) -> String? {
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
        switch bytes[i] {
        case UInt8(ascii: "+"):
            out.append(0x20)
            i += 1
        case UInt8(ascii: "%"):
            guard i + 2 < bytes.count, isHexDigit(bytes[i + 1]), isHexDigit(bytes[i + 2]) else { return nil }
            out.append(hexValue(bytes[i + 1]) * 16 + hexValue(bytes[i + 2]))
            i += 3
        default:
            out.append(bytes[i])
            i += 1
        }
    }
    return String(validating: out, as: UTF8.self)
}
