import ByteWriters
import Cellar

/// Where each table's list is served: `/{name}` where it can be, elsewhere under `/-/`, so that no
/// table shadows a path of the server's or another table's twin.
extension App {
    /// Paths the server answers itself, which no table may take.
    static let reservedFirstSegments: Set<String> = ["static", "healthz", "metrics", "readyz", "-", "index", "index.json", "favicon.ico"]

    /// Paths under `/-/` the server keeps for itself (the SQL page, canned queries), with their
    /// twins: a table whose path would be one of them is at its hex path.
    static let reservedDashPaths: Set<String> = Set(
        ["/-/query", "/-/queries"].flatMap { [$0, $0 + ".json", $0 + ".csv"] })

    /// Each table's path: `/{name}`; `/-/{name}` for a name that would shadow another path or a
    /// list's `.json` or `.csv` twin; `/-/x/{hex of its UTF-8}` for a name a route cannot hold or a
    /// link would lose (`..` is removed from a URL before it is asked for), and for any name whose
    /// path or twins another table's already take. No two tables share a path or a twin.
    static func listPaths(for names: [String]) -> [String: String] {
        let all = Set(names)
        var claimed = reservedDashPaths
        var paths: [String: String] = [:]
        func claims(_ path: String) -> [String] { [path, path + ".json", path + ".csv"] }
        // Plain names first: `/{name}` is what users expect, and what the others must step around.
        let plain = names.filter { listPath(for: $0, among: all).hasPrefix("/-/") == false }
        for name in plain + names.filter({ !plain.contains($0) }) {
            var path = listPath(for: name, among: all)
            if claims(path).contains(where: claimed.contains) { path = hexPath(for: name) }
            paths[name] = path
            claimed.formUnion(claims(path))
        }
        return paths
    }

    static func listPath(for name: String, among names: Set<String>) -> String {
        if name.isEmpty || name.contains("/") || name.hasPrefix(":") || name.hasPrefix("*") || name == "." || name == ".." {
            return hexPath(for: name)
        }
        let shadowsTwin = [".json", ".csv"].contains { name.hasSuffix($0) && names.contains(String(name.dropLast($0.count))) }
        if reservedFirstSegments.contains(name) || shadowsTwin { return "/-/" + name }
        return "/" + name
    }

    /// `/-/x/` and the name's UTF-8 in hex: a path no name can take otherwise.
    static func hexPath(for name: String) -> String {
        "/-/x/" + HexDigits.string(of: name.utf8)
    }
}
