import Foundation

/// An element of an HTML document as a browser's parser builds it (html5lib, the WHATWG algorithm).
struct HTMLElement {
    var tag: String
    var attributes: [String: String]
    /// All the text inside the element (its `textContent`).
    var text: String

    func hasClass(_ name: String) -> Bool {
        (attributes["class"] ?? "").split(separator: " ").contains { $0 == name }
    }
}

/// Escaping is judged by parsing, never by comparing strings: these run Python's html5lib, the
/// parser `Tests/e2e/check_markup.py` uses (`make test-deps` installs it).
enum HTMLInspector {
    /// Every element of `html`, in document order.
    static func elements(_ html: [UInt8]) throws -> [HTMLElement] {
        try elements(of: [html])[0]
    }

    /// Every element of each document, in document order (one parser run for all of them).
    static func elements(of documents: [[UInt8]]) throws -> [[HTMLElement]] {
        let script = """
            import html5lib, json, sys
            result = []
            for path in sys.argv[2:]:
                document = html5lib.parse(open(path, 'rb').read().decode('utf-8'), treebuilder='etree', namespaceHTMLElements=False)
                out = []
                for element in document.iter():
                    if not isinstance(element.tag, str):
                        continue
                    out.append({'tag': element.tag.rsplit('}', 1)[-1].lower(), 'attributes': dict(element.attrib), 'text': ''.join(element.itertext())})
                result.append(out)
            json.dump(result, open(sys.argv[1], 'w', encoding='utf-8'))
            """
        let folder = try TemporaryFolder()
        let output = folder.path + "/output.json"
        var arguments = ["-c", script, output]
        for (index, document) in documents.enumerated() {
            arguments.append(try folder.write("input-\(index).html", document))
        }
        let result = try Python.run(arguments)
        guard result.status == 0 else { throw PythonFailed(result: result) }
        let parsed = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        return try (parsed.array ?? []).map { document in
            try (document.array ?? []).map { element in
                var attributes: [String: String] = [:]
                if case .object(let object) = try element.field("attributes") {
                    for (name, value) in object { attributes[name] = value.string }
                }
                return HTMLElement(tag: try element.string("tag"), attributes: attributes, text: try element.string("text"))
            }
        }
    }

    /// Runs `check_markup.py` on documents: nothing in them may run script or load something, and
    /// with `expectText`, every string must appear in their text content. Returns its report; empty when clean.
    static func checkMarkup(_ documents: [[UInt8]], expectText payloadFile: String? = nil) throws -> String? {
        try checkMarkup(documents, expectTextFile: payloadFile)
    }

    /// ``checkMarkup(_:expectText:)`` with the expected strings given here rather than in a file.
    static func checkMarkup(_ documents: [[UInt8]], expectText strings: [String]) throws -> String? {
        let folder = try TemporaryFolder()
        let file = try folder.write("expected.json", Array(try JSONEncoder().encode(strings)))
        return try checkMarkup(documents, expectTextFile: file)
    }

    private static func checkMarkup(_ documents: [[UInt8]], expectTextFile payloadFile: String?) throws -> String? {
        let folder = try TemporaryFolder()
        var arguments = [Repository.checkMarkupScript]
        if let payloadFile { arguments += ["--expect-text", payloadFile] }
        for (index, document) in documents.enumerated() {
            arguments.append(try folder.write("document-\(index).html", document))
        }
        let result = try Python.run(arguments)
        return result.status == 0 ? nil : "check_markup.py exited \(result.status):\n\(result.output)\n\(result.errors)"
    }

    /// Checks attribute values by parsing: every element with attribute `name` gives back one of
    /// `expected`, and every expected string is given back (compared as check_markup.py compares
    /// text: CR/CRLF as LF, C0 controls, noncharacters and U+FFFD dropped). Returns the problems.
    static func attributeValues(_ name: String, in html: [UInt8], expected: [String], decodePercent: Bool = false, prefix: String = "")
        throws -> [String]
    {
        let script = """
            import html5lib, json, sys, urllib.parse
            sys.path.insert(0, sys.argv[3])
            from check_markup import _normalise_text
            name, prefix, decode = sys.argv[4], sys.argv[5], sys.argv[6] == '1'
            document = html5lib.parse(open(sys.argv[1], 'rb').read().decode('utf-8'), treebuilder='etree', namespaceHTMLElements=False)
            expected = json.load(open(sys.argv[2], encoding='utf-8'))
            found = set()
            for element in document.iter():
                if not isinstance(element.tag, str) or name not in element.attrib:
                    continue
                value = element.attrib[name]
                if not value.startswith(prefix):
                    continue
                value = value[len(prefix):]
                if decode:
                    value = urllib.parse.unquote(value, errors='strict')
                found.add(_normalise_text(value))
            wanted = {_normalise_text(text) for text in expected}
            problems = ['not given back: %r' % text for text in sorted(wanted - found)]
            problems += ['unexpected value: %r' % text for text in sorted(found - wanted)]
            json.dump(problems, open(sys.argv[7], 'w', encoding='utf-8'))
            """
        let folder = try TemporaryFolder()
        let input = try folder.write("input.html", html)
        let expectedFile = try folder.write("expected.json", Array(try JSONEncoder().encode(expected)))
        let output = folder.path + "/output.json"
        let scripts = Repository.root + "/Tests/e2e"
        let result = try Python.run(["-c", script, input, expectedFile, scripts, name, prefix, decodePercent ? "1" : "0", output])
        guard result.status == 0 else { throw PythonFailed(result: result) }
        return try JSONDecoder().decode([String].self, from: Data(contentsOf: URL(fileURLWithPath: output)))
    }
}

/// Runs `python3` (the tests need it with html5lib, as `make test-deps` installs).
enum Python {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let folder = try TemporaryFolder()
        let outputPath = try folder.write("stdout.txt", [])
        let errorsPath = try folder.write("stderr.txt", [])
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        try errors.close()
        return Result(
            status: process.terminationStatus, output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? "")
    }
}

struct PythonFailed: Error, CustomStringConvertible {
    let result: Python.Result
    var description: String {
        "python3 exited \(result.status) (the Cellar tests need python3 with html5lib: `make test-deps`): \(result.errors)"
    }
}

/// A folder under the system's temporary directory, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "/cellar-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` to `name` in the folder; returns the file's path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file])
        }
        return file
    }
}
