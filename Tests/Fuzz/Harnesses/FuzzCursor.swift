// libFuzzer target: ListCursor(token:orderSignature:valueCount:) (Sources/CellarDatabase/ListCursor.swift),
// the one opaque value a database list reads back from its URLs.
//
// Properties, for any bytes:
// - reading a token never traps, whatever it decodes to; a position is at most 2^40;
// - a cursor that was read writes a token that reads back to the same cursor;
// - a cursor written from any values either reads back or, longer than a URL allows, is not written;
// - the input's first byte picks an order signature and a value count: a token read under one
//   order is refused under any other.

import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCursor(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    checkCursor(bytes)
    return 0
}

func checkCursor(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let signature = UInt64(first) &* 0x9E37_79B9_7F4A_7C15
    let count = Int(first % 5)
    let token = String(decoding: bytes.dropFirst(), as: UTF8.self)
    // The raw text, and the same text as base64url, so that structured tokens are reached too.
    for candidate in [token, base64url(Array(bytes.dropFirst()))] {
        guard let cursor = ListCursor(token: candidate, orderSignature: signature, valueCount: count) else { continue }
        require(cursor.position >= 0 && cursor.position <= 1 << 40, "position \(cursor.position) from \(show(candidate))")
        require(cursor.values.count == count, "\(cursor.values.count) values for \(count) from \(show(candidate))")
        // A token that was read is never written longer: its numbers and escapes only shorten.
        guard let token = cursor.token else { return require(false, "\(show(candidate)) reads but is not written again") }
        let again = ListCursor(token: token, orderSignature: signature, valueCount: count)
        require(again == cursor || cursor.values.contains(where: isNaN), "\(show(candidate)) does not read back from \(token)")
        require(
            ListCursor(token: token, orderSignature: signature &+ 1, valueCount: count) == nil,
            "a token of one order is read under another: \(show(candidate))")
    }
    // Any cursor written from values the input gives reads back.
    let values: [DatabaseValue] = bytes.dropFirst().prefix(count).map { byte in
        switch byte % 5 {
        case 0: .null
        case 1: .integer(Int64(byte) &* 0x0101_0101_0101_0101)
        case 2: .real(Double(byte) / 7)
        case 3: .text(String(decoding: bytes.dropFirst(), as: UTF8.self))
        default: .blob(Array(bytes.prefix(Int(byte))))
        }
    }
    guard values.count == count else { return }
    let written = ListCursor(position: Int(first) * 1000, orderSignature: signature, values: values)
    guard let token = written.token else { return }
    require(token.utf8.count <= ListCursor.longestToken, "a token of \(token.utf8.count) bytes is written")
    require(
        ListCursor(token: token, orderSignature: signature, valueCount: count) == written,
        "values \(values) do not read back")
}

func isNaN(_ value: DatabaseValue) -> Bool {
    if case .real(let real) = value { return real.isNaN }
    return false
}

func base64url(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
}
