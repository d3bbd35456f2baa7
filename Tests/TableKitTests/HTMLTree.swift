import Foundation

/// An element of parsed HTML, as `parse_html.py` prints it.
struct HTMLNode: Decodable {
    var tag: String
    var attributes: [String: String]
    /// The element's own text nodes joined (not its descendants').
    var text: String
    var children: [HTMLNode]

    /// This node and every node under it, in document order.
    var allNodes: [HTMLNode] { [self] + children.flatMap(\.allNodes) }
}

/// Why the HTML could not be parsed: most often, python3 or html5lib is missing.
struct HTMLParserUnavailable: Error, CustomStringConvertible {
    var description: String
}

extension HTMLNode {
    /// Parses a fragment with html5lib (the WHATWG algorithm browsers use) through `parse_html.py`.
    static func parse(fragment html: String) throws -> HTMLNode {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("parse_html.py")
        let folder = try TemporaryFolder()
        try folder.write("input.html", html)
        _ = FileManager.default.createFile(atPath: folder.path + "/output.json", contents: nil)
        _ = FileManager.default.createFile(atPath: folder.path + "/errors.txt", contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.path + "/output.json"))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.path + "/errors.txt"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, folder.path + "/input.html"]
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw HTMLParserUnavailable(description: "cannot run /usr/bin/env python3 (\(error)); the hostile-data tests need python3 with html5lib")
        }
        process.waitUntilExit()
        try output.close()
        try errors.close()

        let stderr = (try? String(contentsOfFile: folder.path + "/errors.txt", encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let hint =
                process.terminationStatus == 127
                ? "python3 is not on the PATH. " : ""
            throw HTMLParserUnavailable(
                description: "\(hint)parse_html.py failed with status \(process.terminationStatus): \(stderr)"
                    + " (the hostile-data tests need python3 with html5lib: `make` installs it, or `python3 -m pip install html5lib`)")
        }
        let json = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/output.json"))
        return try JSONDecoder().decode(HTMLNode.self, from: json)
    }
}

extension String {
    /// Whether the string is empty or only whitespace (the line breaks between a table's elements).
    var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
