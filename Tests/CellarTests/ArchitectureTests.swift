import Foundation
import Testing

/// The import rules of ARCHITECTURE.md, checked against the sources: every `import` of every Swift
/// file of a module must be one its row of ``ArchitectureTests/rules`` allows, and a module's
/// imports of the package's modules and products must be its declared dependencies in
/// Package.swift (and those, in turn, allowed).
///
/// The table below and the one in ARCHITECTURE.md are the same table: change both together.
struct ArchitectureTests {
    struct Rule {
        /// The target's name in Package.swift (nil: not a target of this package).
        let target: String?
        /// The folder of its Swift sources, from the repository's root.
        let folder: String
        /// The modules its files may import.
        let mayImport: Set<String>
    }

    /// The C library wrappers and the platform: what most modules may use.
    static let libc: Set<String> = ["Glibc", "Musl", "Darwin"]

    static let rules: [Rule] = [
        // Bytes: the buffer, the HTML, JSON and logfmt writers, digits, the hash, the lock. Below every
        // other module, it imports none of them; the only importer of CByteScan.
        Rule(target: "ByteWriters", folder: "Sources/ByteWriters", mayImport: libc.union(["CByteScan", "Synchronization"])),
        // HTTP over libmicrohttpd; knows nothing of tables or cells. The only importer of CMicroHTTPD.
        Rule(
            target: "MicroHTTP", folder: "Sources/MicroHTTP", mayImport: libc.union(["ByteWriters", "CMicroHTTPD", "Logging", "Synchronization"])),
        // Cells, reuse, providers, controllers; knows nothing of HTTP.
        Rule(target: "TableKit", folder: "Sources/TableKit", mayImport: libc.union(["ByteWriters", "Synchronization", "FoundationEssentials"])),
        // The glue: lists on routes, formats, paging, streaming, logs, metrics, the command line, sign-in (its
        // configuration's YAML through Yams). The only importer of COpenSSL, in SignIn/Crypto.swift alone.
        Rule(
            target: "Cellar", folder: "Sources/Cellar",
            mayImport: libc.union([
                "ByteWriters", "TableKit", "MicroHTTP", "Logging", "ArgumentParser", "Metrics", "CoreMetrics", "Prometheus", "Synchronization",
                "FoundationEssentials", "Yams", "COpenSSL",
            ])),
        // SQLite, read-only (connections, the pool, the schema), and PostgreSQL connections. The only importer of
        // CSQLite and CLibPQ; knows no HTTP.
        Rule(
            target: "CellarDatabase", folder: "Sources/CellarDatabase",
            mayImport: libc.union([
                "CSQLite", "CLibPQ", "ByteWriters", "TableKit", "MicroHTTP", "Cellar", "Yams", "ArgumentParser", "Synchronization",
                "FoundationEssentials",
            ])),
        // An app: Cellar's and TableKit's public API only.
        Rule(
            target: "Showcase", folder: "Sources/Showcase",
            mayImport: ["Cellar", "CellarDatabase", "TableKit", "FoundationEssentials", "Synchronization"]),
        // The executable wires and nothing else.
        Rule(target: "cellar", folder: "Sources/cellar", mayImport: ["Cellar", "CellarDatabase", "Showcase"]),
        // An app the signal tests spawn.
        Rule(target: "cellar-test-app", folder: "Tests/TestApp", mayImport: libc.union(["Cellar", "TableKit"])),
        // A raw-socket HTTP client: none of the package's modules.
        Rule(target: "HTTPTestSupport", folder: "Tests/HTTPTestSupport", mayImport: libc),
        // The example app, a package of its own: an app's imports.
        Rule(target: nil, folder: "Examples/Bookshelf/Sources/Bookshelf", mayImport: ["Cellar", "TableKit", "FoundationEssentials"]),
        // Each module's tests: their module, never a layer they do not test.
        Rule(target: "ByteWritersTests", folder: "Tests/ByteWritersTests", mayImport: libc.union(["ByteWriters", "Testing", "Foundation"])),
        Rule(
            target: "TableKitTests", folder: "Tests/TableKitTests",
            mayImport: libc.union(["TableKit", "Testing", "Foundation", "Synchronization"])),
        Rule(
            target: "MicroHTTPTests", folder: "Tests/MicroHTTPTests",
            mayImport: libc.union(["MicroHTTP", "HTTPTestSupport", "Logging", "Testing", "Foundation", "Synchronization"])),
        Rule(
            target: "CellarDatabaseTests", folder: "Tests/CellarDatabaseTests",
            mayImport: libc.union([
                "CellarDatabase", "Cellar", "MicroHTTP", "TableKit", "HTTPTestSupport", "Logging", "Testing", "Foundation", "Synchronization",
            ])),
    ]

    /// Modules that Package.swift provides (targets, and products of dependencies with the modules
    /// they bring): importing one of these needs a declared dependency. The toolchain's modules
    /// (Foundation, Synchronization, Testing, the C library) do not.
    static let packageModules: [String: String] = [
        "CMicroHTTPD": "CMicroHTTPD", "CByteScan": "CByteScan", "ByteWriters": "ByteWriters", "MicroHTTP": "MicroHTTP", "TableKit": "TableKit",
        "Cellar": "Cellar",
        "CSQLite": "CSQLite", "CLibPQ": "CLibPQ", "CellarDatabase": "CellarDatabase", "Showcase": "Showcase", "HTTPTestSupport": "HTTPTestSupport",
        "Logging": "Logging", "ArgumentParser": "ArgumentParser", "Metrics": "Metrics", "CoreMetrics": "Metrics", "Prometheus": "Prometheus",
        "Yams": "Yams", "COpenSSL": "COpenSSL",
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One `import` line.
    struct Import: Equatable {
        let line: Int
        let module: String
        /// `@_exported` or `@testable`, when the import has one.
        let attributes: [String]
    }

    /// The imports of a Swift file: `import X`, `import struct X.Y`, `public import X`,
    /// `@testable import X`, in `#if` blocks too. Comments and multi-line string literals (a
    /// Python script in a test, say) are skipped.
    static func imports(in source: String) -> [Import] {
        var found: [Import] = []
        var inString = false
        for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            let quotes = line.components(separatedBy: "\"\"\"").count - 1
            defer { if quotes % 2 == 1 { inString.toggle() } }
            guard !inString, !line.hasPrefix("//") else { continue }
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            var attributes: [String] = []
            while let first = words.first, first.hasPrefix("@") {
                attributes.append(first)
                words.removeFirst()
            }
            if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { continue }
            words.removeFirst()
            let kinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
            if kinds.contains(words[0]), words.count >= 2 { words.removeFirst() }
            let module = String(words[0].prefix { $0 != "." && $0 != ";" })
            found.append(Import(line: index + 1, module: module, attributes: attributes))
        }
        return found
    }

    /// What breaks the rule in one file's source, as `path:line: message` lines.
    static func violations(of rule: Rule, path: String, source: String) -> [String] {
        var problems: [String] = []
        for found in imports(in: source) {
            let name = rule.target ?? rule.folder
            if found.attributes.contains("@_exported") {
                problems.append("\(path):\(found.line): @_exported import \(found.module): no module re-exports another")
            }
            if !rule.mayImport.contains(found.module) {
                let allowed = rule.mayImport.sorted().joined(separator: ", ")
                problems.append("\(path):\(found.line): import \(found.module): \(name) may import only \(allowed)")
            }
        }
        return problems
    }

    static func swiftFiles(in folder: String) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: base.path])
        }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
    }

    @Test func everyImportIsOneItsModuleMayMake() throws {
        var checked = 0
        for rule in Self.rules {
            let files = try Self.swiftFiles(in: rule.folder)
            #expect(!files.isEmpty, "no Swift files in \(rule.folder)")
            for path in files {
                let source = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
                for problem in Self.violations(of: rule, path: path, source: source) {
                    Issue.record(Comment(rawValue: problem))
                }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test func onlyMicroHTTPImportsCMicroHTTPD() {
        for rule in Self.rules where rule.target != "MicroHTTP" {
            #expect(!rule.mayImport.contains("CMicroHTTPD"), "\(rule.folder)")
        }
        for rule in Self.rules where rule.target == "TableKit" {
            #expect(rule.mayImport.isDisjoint(with: ["MicroHTTP", "CMicroHTTPD", "Cellar", "Logging"]))
        }
        for rule in Self.rules where rule.target == "MicroHTTP" {
            #expect(rule.mayImport.isDisjoint(with: ["TableKit", "CByteScan", "Cellar"]))
        }
    }

    /// ByteWriters is below every other module: it imports none of them, and it alone imports CByteScan.
    @Test func byteWritersIsAtTheBottom() {
        let ours = Set(Self.packageModules.keys).subtracting(["CByteScan"])
        for rule in Self.rules where rule.target == "ByteWriters" {
            #expect(rule.mayImport.isDisjoint(with: ours))
        }
        for rule in Self.rules where rule.target != "ByteWriters" {
            #expect(!rule.mayImport.contains("CByteScan"), "\(rule.folder)")
        }
    }

    @Test func onlyCellarDatabaseImportsCSQLite() {
        for rule in Self.rules where rule.target != "CellarDatabase" {
            #expect(!rule.mayImport.contains("CSQLite"), "\(rule.folder)")
        }
        for rule in Self.rules where rule.target == "CellarDatabase" {
            // Above Cellar, through its public API only: never libmicrohttpd, nor Foundation's whole.
            #expect(rule.mayImport.isDisjoint(with: ["CMicroHTTPD", "Foundation"]))
        }
    }

    /// libpq, like SQLite, stays inside CellarDatabase: no PostgreSQL type or pointer outside it.
    @Test func onlyCellarDatabaseImportsCLibPQ() {
        for rule in Self.rules where rule.target != "CellarDatabase" {
            #expect(!rule.mayImport.contains("CLibPQ"), "\(rule.folder)")
        }
        #expect(Self.rules.contains { $0.target == "CellarDatabase" && $0.mayImport.contains("CLibPQ") })
    }

    /// OpenSSL's types stay in one file: the rest of Cellar sees `Crypto`'s byte arrays.
    @Test func onlyCellarsCryptoFileImportsCOpenSSL() throws {
        for rule in Self.rules where rule.target != "Cellar" {
            #expect(!rule.mayImport.contains("COpenSSL"), "\(rule.folder)")
        }
        for file in try Self.swiftFiles(in: "Sources/Cellar") where !file.hasSuffix("SignIn/Crypto.swift") {
            let source = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            #expect(!Self.imports(in: source).contains { $0.module == "COpenSSL" }, "\(file)")
        }
    }

    /// Package.swift's `dependencies:` of each target, by target name: plain names and products'.
    static func declaredDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        guard let targets = manifest.range(of: "targets: [") else { return [:] }
        let declarations = try Regex(#"\.(target|executableTarget|testTarget|systemLibrary)\("#)
        var result: [String: Set<String>] = [:]
        let text = manifest[targets.upperBound...]
        let starts = text.ranges(of: declarations).map(\.lowerBound) + [text.endIndex]
        for (start, end) in zip(starts, starts.dropFirst()) {
            let declaration = text[start..<end]
            guard let name = try Regex(#"name: "([^"]+)""#).firstMatch(in: declaration)?.output[1].substring else { continue }
            var dependencies: Set<String> = []
            if let list = declaration.range(of: "dependencies: [") {
                var depth = 1
                var index = list.upperBound
                while index < declaration.endIndex, depth > 0 {
                    if declaration[index] == "[" { depth += 1 } else if declaration[index] == "]" { depth -= 1 }
                    index = declaration.index(after: index)
                }
                var items = String(declaration[list.upperBound..<index])
                for match in items.matches(of: try Regex(#"\.product\(name: "([^"]+)"[^)]*\)"#)) {
                    if let product = match.output[1].substring { dependencies.insert(String(product)) }
                }
                items = items.replacing(try Regex(#"\.product\([^)]*\)"#), with: "")
                for match in items.matches(of: try Regex(#""([^"]+)""#)) {
                    if let target = match.output[1].substring { dependencies.insert(String(target)) }
                }
            }
            result[String(name)] = dependencies
        }
        return result
    }

    @Test func packageDependenciesAgreeWithTheImports() throws {
        let declared = try Self.declaredDependencies()
        #expect(declared["TableKit"] == ["ByteWriters"])
        for rule in Self.rules {
            guard let target = rule.target, !target.hasSuffix("Tests") else { continue }
            guard let dependencies = declared[target] else {
                Issue.record("Package.swift declares no target \(target)")
                continue
            }
            for dependency in dependencies {
                let modules = Self.packageModules.filter { $0.value == dependency }.keys
                #expect(
                    modules.contains { rule.mayImport.contains($0) },
                    "Package.swift: \(target) depends on \(dependency), which ARCHITECTURE.md does not let it import")
            }
            var imported: [String: String] = [:]
            for path in try Self.swiftFiles(in: rule.folder) {
                let source = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
                for found in Self.imports(in: source) { imported[found.module] = imported[found.module] ?? "\(path):\(found.line)" }
            }
            for (module, place) in imported.sorted(by: { $0.key < $1.key }) {
                guard let needed = Self.packageModules[module] else { continue }
                #expect(
                    dependencies.contains(needed),
                    "\(place): import \(module), but Package.swift does not list \(needed) in \(target)'s dependencies")
            }
        }
    }

    /// Where `source` uses `Synchronization.Mutex`, by line, comments aside.
    static func mutexUses(path: String, source: String) -> [String] {
        var problems: [String] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if code.contains(/\bMutex\s*[<(]/) {
                problems.append("\(path):\(index + 1): Mutex: use ByteWriters' Locked, whose pthread mutex ThreadSanitizer sees")
            }
        }
        return problems
    }

    /// ThreadSanitizer on Linux does not see the futex behind `Synchronization.Mutex` and reports
    /// the accesses it guards as races now and then (a CI run failed on one); the suites run under
    /// ThreadSanitizer, so the package locks with `Locked` alone.
    @Test func noCodeLocksWithSynchronizationMutex() throws {
        #expect(
            Self.mutexUses(path: "Example.swift", source: "// a Mutex<Int> in a comment\nlet a = Mutex(0)\nlet b: Locked<Int>") == [
                "Example.swift:2: Mutex: use ByteWriters' Locked, whose pthread mutex ThreadSanitizer sees"
            ])
        var checked = 0
        for rule in Self.rules {
            for path in try Self.swiftFiles(in: rule.folder) {
                let source = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
                for problem in Self.mutexUses(path: path, source: source) { Issue.record(Comment(rawValue: problem)) }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    /// Where unsafe code may stand (ARCHITECTURE.md, "Where unsafe code is"): the constructs
    /// that read private layouts or switch off checks only in ByteWriters, and `Unmanaged`, which
    /// carries an object through a C `void *`, only in the files that hand objects to C.
    static var unsafeConstructs: [(pattern: Regex<Substring>, name: String, allowedIn: [String])] {
        [
            (/\bunsafeBitCast\b/, "unsafeBitCast", ["Sources/ByteWriters/"]),
            (/\bunsafeDowncast\b/, "unsafeDowncast", ["Sources/ByteWriters/"]),
            (/@exclusivity\(unchecked\)/, "@exclusivity(unchecked)", ["Sources/ByteWriters/"]),
            (/MemoryLayout<[^>]*>\.offset/, "MemoryLayout.offset", ["Sources/ByteWriters/"]),
            (
                /\bUnmanaged\b|_withUnsafeGuaranteedRef/, "Unmanaged",
                [
                    "Sources/ByteWriters/Threads.swift", "Sources/MicroHTTP/Internal/", "Sources/MicroHTTP/Server.swift",
                    "Sources/CellarDatabase/SQLite/SQLiteConnection+Deadline.swift",
                ]
            ),
        ]
    }

    /// The unsafe constructs `source` uses outside the places allowed them, by line, comments aside.
    static func misplacedUnsafeCode(path: String, source: String) -> [String] {
        var problems: [String] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            // Most lines name none of them: a plain search first, the patterns only after it.
            guard code.contains("nsafe") || code.contains("exclusivity") || code.contains("MemoryLayout") || code.contains("Unmanaged") else {
                continue
            }
            for construct in unsafeConstructs where code.contains(construct.pattern) {
                guard !construct.allowedIn.contains(where: { path.hasPrefix($0) }) else { continue }
                problems.append("\(path):\(index + 1): \(construct.name) outside \(construct.allowedIn.joined(separator: ", "))")
            }
        }
        return problems
    }

    @Test func unsafeCodeStandsOnlyInTheByteModuleAndAtTheCBoundary() throws {
        #expect(
            Self.misplacedUnsafeCode(
                path: "Sources/TableKit/Example.swift",
                source: "// Unmanaged in a comment\nvar entry: Unmanaged<Entry>?\nlet x = unsafeDowncast(y, to: Z.self)"
            ) == [
                "Sources/TableKit/Example.swift:2: Unmanaged outside Sources/ByteWriters/Threads.swift, Sources/MicroHTTP/Internal/, Sources/MicroHTTP/Server.swift, Sources/CellarDatabase/SQLite/SQLiteConnection+Deadline.swift",
                "Sources/TableKit/Example.swift:3: unsafeDowncast outside Sources/ByteWriters/",
            ])
        var checked = 0
        for rule in Self.rules where rule.folder.hasPrefix("Sources/") {
            for path in try Self.swiftFiles(in: rule.folder) {
                let source = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
                for problem in Self.misplacedUnsafeCode(path: path, source: source) { Issue.record(Comment(rawValue: problem)) }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    /// A file holds one concept and reads in one sitting: at most one source file is over 400
    /// lines, and it says why in a comment at its top.
    @Test func atMostOneSourceFileIsLongAndItSaysWhy() throws {
        var long: [String] = []
        var checked = 0
        for rule in Self.rules where rule.folder.hasPrefix("Sources/") {
            for path in try Self.swiftFiles(in: rule.folder) {
                let source = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
                checked += 1
                let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
                guard lines.count > 400 else { continue }
                long.append(path)
                let top = lines.prefix(30).filter { $0.hasPrefix("//") && !$0.hasPrefix("///") }.joined(separator: " ")
                #expect(top.contains("over 400 lines"), "\(path) has \(lines.count) lines and does not say why at its top")
            }
        }
        #expect(long.count <= 1, "source files over 400 lines: \(long)")
        #expect(checked > 100)
    }

    /// The check itself: a forbidden import is found with its line, and what only looks like one is not.
    @Test func theCheckFindsAForbiddenImport() throws {
        let rule = try #require(Self.rules.first { $0.target == "TableKit" })
        let source = """
            // import MicroHTTP (a comment)
            import ByteWriters
            #if canImport(Glibc)
                import Glibc
            #endif
            let script = \"\"\"
                import html5lib
                \"\"\"
            @_exported import Synchronization
            @preconcurrency import struct MicroHTTP.Request
            """
        let problems = Self.violations(of: rule, path: "Sources/TableKit/Example.swift", source: source)
        #expect(
            problems == [
                "Sources/TableKit/Example.swift:9: @_exported import Synchronization: no module re-exports another",
                "Sources/TableKit/Example.swift:10: import MicroHTTP: TableKit may import only ByteWriters, Darwin, FoundationEssentials, Glibc, Musl, Synchronization",
            ])
    }
}
