import ByteWriters
import MicroHTTP

/// Where sign-in sends its visitor back to: `?next=`, if it is a path of this site.
///
/// Accepted only if, once decoded, it starts with a single `/` not followed by `/` or `\`, and has
/// no backslash or control character; it is then rebuilt from its parsed path and query (each
/// percent-encoded again), so what reaches `Location` is a path of this site. Anything else is `/`.
enum NextPath {
    static func safe(_ next: String?) -> String {
        guard let next, !next.isEmpty else { return "/" }
        // A fragment is not sent to a server; drop it.
        let withoutFragment = next.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        // The path decoded once more (`/%2F` is `//`): what a browser could read it as.
        let path = PercentEncoding.decoded(parts[0].utf8)
        guard isSafe(next), isSafe(path) else { return "/" }
        let keptInPath = Set("/!$&'()*+,;=:@".utf8)
        var rebuilt = PercentEncoding.encoded(path) { PercentEncoding.isUnreserved($0) || keptInPath.contains($0) }
        if parts.count > 1 {
            guard let query = try? QueryItems(parsing: String(parts[1])) else { return "/" }
            if !query.isEmpty { rebuilt += "?" + query.percentEncoded }
        }
        return rebuilt
    }

    private static func isSafe(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard scalars.first == "/" else { return false }
        let second = scalars.dropFirst().first
        guard second != "/", second != "\\" else { return false }
        return !scalars.contains { $0 == "\\" || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
