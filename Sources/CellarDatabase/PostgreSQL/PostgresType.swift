import ByteWriters
import CLibPQ

/// How a column's text is read into a ``DatabaseValue``, by the column's type OID.
///
/// Results come in PostgreSQL's text format; each type maps to the value SQLite would hold for it:
/// whole numbers as `.integer`, floating point as `.real`, `bool` as `.integer` 1 or 0 (SQLite has
/// no boolean), `bytea` as `.blob`, and every other type as `.text` — `numeric` too, so that its
/// digits stay exact, and dates, times, JSON, UUIDs in PostgreSQL's own spelling (`DateStyle`
/// ISO, set per connection).
enum PostgresType: Sendable, Equatable {
    case integer
    case real
    case boolean
    case bytea
    case text

    /// The built-in OIDs of `pg_type` (stable across versions: `pg_type_d.h`, a server header).
    enum OID {
        static let bool: Oid = 16
        static let bytea: Oid = 17
        static let int8: Oid = 20
        static let int2: Oid = 21
        static let int4: Oid = 23
        static let oid: Oid = 26
        static let float4: Oid = 700
        static let float8: Oid = 701
    }

    init(oid: Oid) {
        switch oid {
        case OID.int2, OID.int4, OID.int8, OID.oid: self = .integer
        case OID.float4, OID.float8: self = .real
        case OID.bool: self = .boolean
        case OID.bytea: self = .bytea
        default: self = .text
        }
    }

    /// The value of a field's text, `bytes` (not NUL-terminated; never NULL: the caller checks that).
    func value(_ bytes: UnsafeRawBufferPointer) -> DatabaseValue {
        switch self {
        case .integer:
            if let integer = Self.integer(bytes) { return .integer(integer) }
        case .real:
            // PostgreSQL writes the shortest text that reads back exactly (`extra_float_digits` 1),
            // and `Infinity`, `-Infinity`, `NaN`, which Double reads too.
            if let real = Double(String(decoding: bytes, as: UTF8.self)) { return .real(real) }
        case .boolean:
            if bytes.count == 1 { return .integer(bytes[0] == UInt8(ascii: "t") ? 1 : 0) }
        case .bytea:
            if let blob = Self.hexBytes(bytes) { return .blob(blob) }
        case .text:
            break
        }
        // A text the type's reader did not expect is kept as text rather than lost.
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    /// A decimal integer with an optional sign, nil when it is not one or does not fit.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { index = 1 }
        guard index < bytes.count else { return nil }
        var magnitude: UInt64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(digit))
            guard !overflowTimes, !overflowSum else { return nil }
            magnitude = sum
            index += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// `bytea`'s hex format, `\x0aff…` (`bytea_output` is set to hex per connection); nil for anything else.
    static func hexBytes(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"), bytes.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity((bytes.count - 2) / 2)
        var index = 2
        while index < bytes.count {
            guard let high = HexDigits.value(of: bytes[index]), let low = HexDigits.value(of: bytes[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

}
