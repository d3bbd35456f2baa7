import ByteWriters
import MicroHTTP

/// A row's version: a hash of all its column values, the same in every process, replica and
/// build, so a change made anywhere (Cellar, the `sqlite3` command line, another app) makes a new
/// one. A row page's `ETag` is it, quoted; `If-Match` and a form's hidden field hand it back, and
/// a write to a row whose version moved since is refused rather than overwriting what someone else
/// wrote.
enum RowVersion {
    /// The version of a row whose columns hold `values`, in the table's column order.
    static func of(_ values: some Collection<DatabaseValue>) -> String {
        var hash = StableHash()
        for value in values {
            switch value {
            case .null: hash.combine(0)
            case .integer(let integer):
                hash.combine(1)
                hash.combine(UInt64(bitPattern: integer))
            case .real(let real):
                hash.combine(2)
                hash.combine(real.bitPattern)
            case .text(let text):
                hash.combine(3)
                hash.combine(text)
            case .blob(let bytes):
                hash.combine(4)
                hash.combine(bytes: bytes)
            }
        }
        // The hash's 16 hex digits, as an entity tag quotes them.
        return String(unsafeUninitializedCapacity: 16) { digits in
            HexDigits.write(hash.value, count: 16, into: digits, at: 0)
            return 16
        }
    }

    /// `version` as an entity tag: quoted.
    static func entityTag(_ version: String) -> String { "\"" + version + "\"" }

    /// Whether an `If-Match` field value names `version` (or is `*`, which any row matches). Strong
    /// comparison, as RFC 9110 asks for `If-Match`: a weak tag (`W/"…"`) matches nothing.
    static func ifMatch(_ field: String, matches version: String) -> Bool {
        field.split(separator: ",").contains { candidate in
            let tag = candidate.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            return String(tag) == "*" || String(tag) == entityTag(version)
        }
    }
}
