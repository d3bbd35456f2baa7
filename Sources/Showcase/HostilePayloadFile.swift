import FoundationEssentials

extension HostileListController {
    /// The strings of a JSON array file named by `CELLAR_HOSTILE_PAYLOADS`, to try the escaping
    /// with payloads of your own; nil when the variable is not set (the built-in ``payloads``).
    public static func payloadsFromEnvironment() throws -> [String]? {
        guard let path = ProcessInfo.processInfo.environment["CELLAR_HOSTILE_PAYLOADS"], !path.isEmpty else { return nil }
        guard let data = FileManager.default.contents(atPath: path), let payloads = try? JSONDecoder().decode([String].self, from: data) else {
            throw PayloadFileError(path: path)
        }
        return payloads
    }

    /// `CELLAR_HOSTILE_PAYLOADS` names a file that is not a JSON array of strings.
    public struct PayloadFileError: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "CELLAR_HOSTILE_PAYLOADS='\(path)' is not a readable JSON array of strings." }
    }
}
