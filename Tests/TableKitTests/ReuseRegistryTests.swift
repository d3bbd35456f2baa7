import Foundation
import TableKit
import Testing

@Suite struct ReuseRegistryTests {
    private final class FirstCell: TableViewCell {}
    private final class SecondCell: TableViewCell {}

    // MARK: Registered and prototype cells

    @Test func classAndPrototypeRegistrationsAreListed() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        try registry.register(DetailCell.self, forCellReuseIdentifier: "Detail")
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)

        #expect(registry.registeredIdentifiers == ["Detail", "SubtitleCell", "TitleCell"])
        #expect(registry.prototypeIdentifiers == ["SubtitleCell"])
        #expect(registry.isRegistered("Detail"))
        #expect(!registry.isRegistered("DetailCell"))
        #expect(!registry.isRegistered("Nope"))
    }

    @Test func aClassDequeuesAsItselfAndAPrototypeAsAPrototypeCell() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        try registry.registerPrototype("SubtitleCell", template: subtitlePrototype)
        let tableView = TableView(registry: registry)
        let indexPath = IndexPath(row: 0, section: 0)

        #expect(try tableView.dequeueReusableCell(withIdentifier: "TitleCell", for: indexPath) is TitleCell)
        let prototype = try #require(try tableView.dequeueReusableCell(withIdentifier: "SubtitleCell", for: indexPath) as? PrototypeCell)
        #expect(prototype.prototypeIdentifier == "SubtitleCell")
        #expect(prototype.template?.keys == ["href", "name", "role"])
    }

    // MARK: Collisions

    @Test func theSameClassTwiceIsFine() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        try registry.register(TitleCell.self)
        try registry.register(TitleCell.self, forCellReuseIdentifier: "TitleCell")
        #expect(registry.registeredIdentifiers == ["TitleCell"])
    }

    @Test func oneClassMayHoldTwoIdentifiers() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        try registry.register(TitleCell.self, forCellReuseIdentifier: "Heading")
        #expect(registry.registeredIdentifiers == ["Heading", "TitleCell"])
    }

    @Test func twoClassesCannotShareAnIdentifier() throws {
        let registry = ReuseRegistry()
        try registry.register(FirstCell.self, forCellReuseIdentifier: "Shared")
        let error = #expect(throws: TableKitError.self) {
            try registry.register(SecondCell.self, forCellReuseIdentifier: "Shared")
        }
        guard case .duplicateIdentifier(let identifier, let existing, let new) = error else {
            Issue.record("expected duplicateIdentifier, got \(String(describing: error))")
            return
        }
        #expect(identifier == "Shared")
        #expect(existing.hasPrefix("class ") && existing.hasSuffix("FirstCell"))
        #expect(new.hasPrefix("class ") && new.hasSuffix("SecondCell"))
        let message = String(describing: error!)
        #expect(message.contains("'Shared'") && message.contains("FirstCell") && message.contains("SecondCell"))

        // The first registration stands: nothing is ever replaced.
        let cell = try TableView(registry: registry).dequeueReusableCell(withIdentifier: "Shared", for: IndexPath(row: 0, section: 0))
        #expect(type(of: cell) == FirstCell.self)
    }

    @Test func aClassCannotTakeAPrototypesIdentifier() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("TitleCell", template: "<b>{{title}}</b>")
        #expect(throws: TableKitError.duplicateIdentifier("TitleCell", existing: "a prototype template", new: "class TableKitTests.TitleCell")) {
            try registry.register(TitleCell.self)
        }
        #expect(registry.prototypeIdentifiers == ["TitleCell"])
    }

    @Test func aPrototypeCannotTakeAClasssIdentifier() throws {
        let registry = ReuseRegistry()
        try registry.register(TitleCell.self)
        #expect(throws: TableKitError.duplicateIdentifier("TitleCell", existing: "class TableKitTests.TitleCell", new: "a prototype template")) {
            try registry.registerPrototype("TitleCell", template: "<b>{{title}}</b>")
        }
        #expect(registry.prototypeIdentifiers.isEmpty)
    }

    /// The fingerprint names the prototypes' identifiers and sources, in order, the same in every
    /// registry; class registrations and refused prototypes leave it as it was.
    @Test func thePrototypeFingerprintFollowsTheTemplates() throws {
        func fingerprint(_ prototypes: [(String, String)]) throws -> UInt64 {
            let registry = ReuseRegistry()
            for (identifier, source) in prototypes { try registry.registerPrototype(identifier, template: source) }
            return registry.prototypeFingerprint
        }
        let empty = try fingerprint([])
        let one = try fingerprint([("Title", "<b>{{name}}</b>")])
        #expect(one != empty)
        #expect(try fingerprint([("Title", "<b>{{name}}</b>")]) == one)
        #expect(try fingerprint([("Title", "<i>{{name}}</i>")]) != one)
        #expect(try fingerprint([("Title2", "<b>{{name}}</b>")]) != one)
        #expect(try fingerprint([("A", "x"), ("B", "y")]) != fingerprint([("B", "y"), ("A", "x")]))

        let registry = ReuseRegistry()
        try registry.registerPrototype("Title", template: "<b>{{name}}</b>")
        try registry.register(FirstCell.self)
        #expect(throws: TableKitError.self) { try registry.registerPrototype("Title", template: "<i>{{name}}</i>") }
        #expect(throws: TableKitError.self) { try registry.registerPrototype("Broken", template: "{{#open}}") }
        #expect(registry.prototypeFingerprint == one)
    }

    @Test func aPrototypeIsRegisteredOnce() throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("NoteCell", template: "{{title}}")
        #expect(throws: TableKitError.self) {
            try registry.registerPrototype("NoteCell", template: "{{title}}")
        }
    }

    // MARK: Prototype identifiers

    @Test(arguments: [
        "", "has space", "../etc/passwd", "a/b", "a\\b", "Ünïcode", "emoji🙂", "dot.html", "<script>", "tab\t", "nul\u{0}",
        String(repeating: "x", count: 129),
    ])
    func invalidPrototypeIdentifiersAreRejected(identifier: String) {
        let registry = ReuseRegistry()
        #expect(throws: TableKitError.invalidIdentifier(identifier)) {
            try registry.registerPrototype(identifier, template: "{{title}}")
        }
        #expect(registry.registeredIdentifiers.isEmpty)
    }

    @Test(arguments: ["A", "SubtitleCell", "value-cell_2", "0", String(repeating: "x", count: 128)])
    func validPrototypeIdentifiersAreAccepted(identifier: String) throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype(identifier, template: "{{title}}")
        #expect(registry.prototypeIdentifiers == [identifier])
    }

    @Test func invalidIdentifierMessageSaysWhatIsAllowed() {
        let message = TableKitError.invalidIdentifier("a b").description
        #expect(message == "'a b' is not a valid reuse identifier: use letters, digits, '_' and '-'.")
    }

    @Test func aBrokenTemplateIsAnInvalidPrototype() {
        let registry = ReuseRegistry()
        let error = #expect(throws: TableKitError.self) {
            try registry.registerPrototype("BrokenCell", template: "<p>\n  {{#open}}x")
        }
        guard case .invalidPrototype(let identifier, let file, let templateError) = error else {
            Issue.record("expected invalidPrototype, got \(String(describing: error))")
            return
        }
        #expect(identifier == "BrokenCell")
        #expect(file == nil)
        #expect(templateError.line == 2 && templateError.column == 3)
        #expect(!registry.isRegistered("BrokenCell"))
    }

    // MARK: Prototype folders

    @Test func registerPrototypesReadsEveryHTMLFileInAFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("SubtitleCell.html", subtitlePrototype)
        try folder.write("NoteCell.html", "<p class=\"cell-title\">{{title}}</p>")
        try folder.write("README.txt", "not a prototype {{")
        try folder.write("ValueCell.htm", "wrong extension")

        let registry = ReuseRegistry()
        let identifiers = try registry.registerPrototypes(in: folder.path)

        #expect(identifiers == ["NoteCell", "SubtitleCell"])
        #expect(registry.prototypeIdentifiers == ["NoteCell", "SubtitleCell"])
        let controller = StubController(rows: 1) { DataCellProvider(prototype: "NoteCell", for: $0, data: ["title": "Shipping"]) }
        #expect(try controller.renderedHTML(registry: registry).contains(#"<p class="cell-title">Shipping</p>"#))
    }

    /// A text file ends with a line break; a row must not: the rows of a list would each carry it.
    @Test func aFilesFinalLineBreakIsNotCopiedIntoItsRows() throws {
        let folder = try TemporaryFolder()
        try folder.write("NoteCell.html", "<p class=\"cell-title\">{{title}}</p>\n")
        try folder.write("WindowsCell.html", "<p class=\"cell-title\">{{title}}</p>\r\n")
        let registry = ReuseRegistry()
        try registry.registerPrototypes(in: folder.path)

        for identifier in ["NoteCell", "WindowsCell"] {
            let controller = StubController(rows: 1) { DataCellProvider(prototype: identifier, for: $0, data: ["title": "Shipping"]) }
            let html = try controller.renderedHTML(registry: registry)
            #expect(html.contains(#"<p class="cell-title">Shipping</p></li>"#), "\(identifier): \(html)")
        }
    }

    /// Only the one line break that ends the last line goes; everything else in a source is the template's.
    @Test(arguments: [
        ("<b>{{t}}</b>\n", "<b>T</b>"), ("<b>{{t}}</b>\r\n", "<b>T</b>"), ("<b>{{t}}</b>", "<b>T</b>"),
        ("<b>{{t}}</b>\n\n", "<b>T</b>\n"), ("<b>{{t}}</b> \n", "<b>T</b> "), ("<b>{{t}}</b>\n ", "<b>T</b>\n "),
        ("<b>{{t}}</b>\r", "<b>T</b>\r"), ("\n<b>{{t}}</b>\n", "\n<b>T</b>"), ("\n", ""),
    ])
    func aStringTemplateLosesOnlyItsFinalLineBreak(source: String, row: String) throws {
        let registry = ReuseRegistry()
        try registry.registerPrototype("TitleCell", template: source)
        let controller = StubController(rows: 1) { DataCellProvider(prototype: "TitleCell", for: $0, data: ["t": "T"]) }
        #expect(try controller.renderedHTML(registry: registry).contains(#"id="row-0-0">"# + row + "</li>"))
    }

    /// The fingerprint hashes the template as registered: a final line break added or removed
    /// changes no row, so it changes no validator either.
    @Test func theFingerprintIgnoresTheFinalLineBreak() throws {
        func fingerprint(_ source: String) throws -> UInt64 {
            let registry = ReuseRegistry()
            try registry.registerPrototype("Title", template: source)
            return registry.prototypeFingerprint
        }
        let plain = try fingerprint("<b>{{name}}</b>")
        #expect(try fingerprint("<b>{{name}}</b>\n") == plain)
        #expect(try fingerprint("<b>{{name}}</b>\r\n") == plain)
        #expect(try fingerprint("<b>{{name}}</b>\n\n") != plain)
    }

    @Test func aBrokenTemplateInAFolderNamesFileLineAndColumn() throws {
        let folder = try TemporaryFolder()
        try folder.write("GoodCell.html", "{{title}}")
        try folder.write("BrokenCell.html", "<span>{{title}}</span>\n<span>{{{title}}}</span>")

        let registry = ReuseRegistry()
        let error = #expect(throws: TableKitError.self) { try registry.registerPrototypes(in: folder.path) }
        guard case .invalidPrototype(let identifier, let file, let templateError) = error else {
            Issue.record("expected invalidPrototype, got \(String(describing: error))")
            return
        }
        #expect(identifier == "BrokenCell")
        #expect(file == folder.path + "/BrokenCell.html")
        #expect(templateError.line == 2)
        #expect(templateError.column == 7)
        let message = String(describing: error!)
        #expect(message.hasPrefix("Prototype 'BrokenCell' (\(folder.path)/BrokenCell.html) does not compile: line 2, column 7: "))
    }

    @Test func aFileNameThatIsNoIdentifierIsRejected() throws {
        let folder = try TemporaryFolder()
        try folder.write("Bad Name.html", "{{title}}")
        #expect(throws: TableKitError.invalidIdentifier("Bad Name")) {
            try ReuseRegistry().registerPrototypes(in: folder.path)
        }
    }

    @Test func aMissingFolderIsUnreadable() {
        let path = FileManager.default.temporaryDirectory.path + "/no-such-folder-\(UUID().uuidString)"
        #expect(throws: TableKitError.unreadablePrototypes(path: path, reason: "the folder cannot be listed")) {
            try ReuseRegistry().registerPrototypes(in: path)
        }
    }

    @Test func aFileThatIsNotUTF8IsUnreadable() throws {
        let folder = try TemporaryFolder()
        try folder.write("LatinCell.html", Data([0x3C, 0x62, 0x3E, 0xE9, 0x3C, 0x2F, 0x62, 0x3E]))  // "<b>é</b>" in Latin-1
        #expect(throws: TableKitError.unreadablePrototypes(path: folder.path + "/LatinCell.html", reason: "the file is not UTF-8")) {
            try ReuseRegistry().registerPrototypes(in: folder.path)
        }
    }

    @Test func anEmptyFolderRegistersNothing() throws {
        let folder = try TemporaryFolder()
        let registry = ReuseRegistry()
        #expect(try registry.registerPrototypes(in: folder.path).isEmpty)
        #expect(registry.registeredIdentifiers.isEmpty)
    }
}

/// A folder under the temporary directory, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("TableKitTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func write(_ name: String, _ text: String) throws {
        try write(name, Data(text.utf8))
    }

    func write(_ name: String, _ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: path + "/" + name))
    }
}
