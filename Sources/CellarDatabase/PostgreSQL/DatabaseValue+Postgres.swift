import ByteWriters

extension DatabaseValue {
    /// The value as a PostgreSQL parameter's text, which the server reads by the type it infers
    /// for the parameter: nil for NULL; a real in the shortest decimal that reads back exactly, and
    /// PostgreSQL's spelling of the infinities and NaN; a blob in `bytea`'s hex format.
    var postgresText: String? {
        switch self {
        case .null: return nil
        case .integer(let integer): return String(integer)
        case .real(let real):
            if real.isNaN { return "NaN" }
            if real.isInfinite { return real < 0 ? "-Infinity" : "Infinity" }
            return "\(real)"
        case .text(let text): return text
        case .blob(let bytes): return "\\x" + HexDigits.string(of: bytes)
        }
    }
}
