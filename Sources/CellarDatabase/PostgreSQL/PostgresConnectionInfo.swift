import ByteWriters
import CLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a PostgreSQL connection goes: a `postgres://` or `postgresql://` URL, a libpq `key=value`
/// string, or the empty string for libpq's `PG*` environment alone — and its description with
/// every password replaced by `***`.
///
/// libpq parses the string (`PQconninfoParse`), so what is accepted here is what libpq accepts;
/// TLS is its `sslmode` (and `sslrootcert`, …) in the string. A password need not be in the string
/// at all: libpq reads `PGPASSWORD` and the password file (`~/.pgpass`, `PGPASSFILE`) itself.
///
/// The password never leaves this value: ``description``, `debugDescription` and its mirror
/// (`dump`, `String(reflecting:)`) show the redacted form, and ``redacting(_:)`` removes it from
/// any message before a ``PostgresError`` carries it.
public struct PostgresConnectionInfo: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The string as given, password included: handed to libpq and to nothing else.
    let connectionString: String
    /// The texts to remove from messages: each password as given (percent-encoded or quoted) and as decoded.
    private let secrets: [String]
    /// The options in libpq's order, values shown as they are except secrets (`***`), with the host,
    /// port, user and database filled in from the environment and libpq's defaults when not given.
    public let description: String
    /// The database's name as the string or the environment gives it (`dbname`, `PGDATABASE`), or
    /// libpq's default, the user's name: what names the database before a connection can ask it.
    public let databaseName: String

    /// Parses `connectionString`; throws ``PostgresError/invalidConnectionString(message:)`` when libpq
    /// cannot (the message redacted).
    public init(_ connectionString: String) throws(PostgresError) {
        self.connectionString = connectionString
        var secrets = Self.rawSecrets(in: connectionString)
        var failure: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &failure) else {
            let message = failure.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(failure)
            throw .invalidConnectionString(message: Self.redacting(Self.trimmed(message), secrets: secrets))
        }
        defer { PQconninfoFree(options) }
        let given = Self.options(options)
        secrets += given.filter(\.isSecret).map(\.value)
        if let environment = getenv("PGPASSWORD") { secrets.append(String(cString: environment)) }
        self.secrets = Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.utf8.count > $1.utf8.count }
        let shown = Self.located(given: given)
        description = shown.map { "\($0.keyword)=" + ($0.isSecret ? "***" : Self.quoted($0.value)) }.joined(separator: " ")
        databaseName = (shown.first { $0.keyword == "dbname" && !$0.value.isEmpty } ?? shown.first { $0.keyword == "user" })?.value ?? "postgres"
    }

    /// Whether `text` is a PostgreSQL URL (`postgres://` or `postgresql://`), as `--database` tells
    /// one from a SQLite file's path.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// `message` with every password of this connection replaced by `***`.
    public func redacting(_ message: String) -> String { Self.redacting(message, secrets: secrets) }

    public var debugDescription: String { "PostgresConnectionInfo(\(description))" }

    public var customMirror: Mirror { Mirror(self, children: ["description": description], displayStyle: .struct) }

    // MARK: Parsing

    /// One option libpq parsed, or a default it would use.
    private struct Option {
        let keyword: String
        let value: String
        /// libpq's display character `*`: a password field (`password`, `sslpassword`).
        let isSecret: Bool
    }

    /// The options of a `PQconninfoParse` or `PQconndefaults` array that have a value.
    private static func options(_ array: UnsafeMutablePointer<PQconninfoOption>) -> [Option] {
        var result: [Option] = []
        var index = 0
        while let keyword = array[index].keyword {
            if let value = array[index].val {
                let isSecret = array[index].dispchar.map { String(cString: $0) == "*" } ?? false
                result.append(Option(keyword: String(cString: keyword), value: String(cString: value), isSecret: isSecret))
            }
            index += 1
        }
        return result
    }

    /// What the description shows: the given options, plus where the connection goes when the
    /// string leaves it to the environment (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`) or to
    /// libpq's defaults; where first.
    private static func located(given: [Option]) -> [Option] {
        var shown = given
        let location = ["host", "hostaddr", "port", "user", "dbname"]
        if let defaults = PQconndefaults() {
            defer { PQconninfoFree(defaults) }
            let present = Set(given.map(\.keyword))
            for option in options(defaults) where location.contains(option.keyword) && !present.contains(option.keyword) {
                shown.append(option)
            }
        }
        // Where first, then the rest in libpq's order.
        return location.compactMap { keyword in shown.first { $0.keyword == keyword } } + shown.filter { !location.contains($0.keyword) }
    }

    /// A value as a `key=value` string writes it: quoted when empty or holding a space, a quote or a backslash.
    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "'" || $0 == "\\" }) else { return value }
        return "'" + value.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    /// libpq's messages end with a newline.
    static func trimmed(_ message: String) -> String {
        String(message.reversed().drop { $0 == "\n" || $0 == " " }.reversed())
    }

    // MARK: Redaction

    private static func redacting(_ message: String, secrets: [String]) -> String {
        var text = message
        for secret in secrets where !secret.isEmpty { text = text.replacing(secret, with: "***") }
        return text
    }

    /// The passwords in `string` as written, found without libpq so that a string libpq rejects is
    /// redacted too (its messages may quote the whole URL): a URL's user information after the
    /// colon, a `password=` or `sslpassword=` query parameter, and a `password=` value in a
    /// `key=value` string, quoted or not, each also percent-decoded or unescaped.
    static func rawSecrets(in string: String) -> [String] {
        var found: [String] = []
        if isURL(string), let scheme = string.range(of: "://") {
            let rest = string[scheme.upperBound...]
            // libpq looks for the user information's `@` before the first `/`.
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            // A password with a bare `@`: libpq splits at the first, a reader may at the last; redact both.
            for at in [rest[..<authorityEnd].firstIndex(of: "@"), rest[..<authorityEnd].lastIndex(of: "@")].compactMap({ $0 }) {
                if let colon = rest[..<at].firstIndex(of: ":") { found.append(String(rest[rest.index(after: colon)..<at])) }
            }
            if let question = rest.firstIndex(of: "?") {
                for pair in rest[rest.index(after: question)...].split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased().hasSuffix("password") { found.append(String(parts[1])) }
                }
            }
            found += found.compactMap(percentDecoded)
        } else {
            found += keyValueSecrets(in: string)
        }
        return found.filter { !$0.isEmpty }
    }

    /// Values of keys ending in `password` in a `key = value` string: as written and unescaped.
    private static func keyValueSecrets(in string: String) -> [String] {
        var found: [String] = []
        let characters = Array(string)
        var index = 0
        while index < characters.count {
            guard characters[index] == "=" else {
                index += 1
                continue
            }
            // The key before the `=`.
            var keyEnd = index
            while keyEnd > 0, characters[keyEnd - 1] == " " { keyEnd -= 1 }
            var keyStart = keyEnd
            while keyStart > 0, characters[keyStart - 1] != " ", characters[keyStart - 1] != "=" { keyStart -= 1 }
            let key = String(characters[keyStart..<keyEnd]).lowercased()
            var start = index + 1
            while start < characters.count, characters[start] == " " { start += 1 }
            var end = start
            var unescaped = ""
            if end < characters.count, characters[end] == "'" {
                end += 1
                while end < characters.count, characters[end] != "'" {
                    if characters[end] == "\\", end + 1 < characters.count { end += 1 }
                    unescaped.append(characters[end])
                    end += 1
                }
                let inner = String(characters[(start + 1)..<min(end, characters.count)])
                if key.hasSuffix("password") { found += [inner, unescaped] }
            } else {
                while end < characters.count, characters[end] != " " { end += 1 }
                if key.hasSuffix("password") { found.append(String(characters[start..<end])) }
            }
            index = max(end, index + 1)
        }
        return found
    }

    /// `%XX` sequences decoded as UTF-8; nil when there are none or one is not valid.
    private static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return nil }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(HexDigits.value(of:)), let low = iterator.next().flatMap(HexDigits.value(of:)) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

}
