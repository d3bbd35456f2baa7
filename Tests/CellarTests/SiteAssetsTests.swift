import Foundation
import Testing

@testable import Cellar

/// `app.css`, `app.js` and `favicon.svg` come with the library: served by an app whose public
/// folder lacks them, or that has none, and replaced by a file of the same name there.
@Suite struct SiteAssetsTests {
    /// A public folder of the test's own, removed afterwards.
    final class TemporaryFolder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cellar-site-\(UUID().uuidString)").path

        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name)) }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static let types = ["app.css": "text/css", "app.js": "text/javascript", "favicon.svg": "image/svg+xml"]

    @Test func theBuiltInFilesAreServedWithoutAPublicFolder() throws {
        let folder = try TemporaryFolder()
        let server = try TestServer(publicDirectory: folder.path + "/missing") { app in
            try app.register(PlainTextCell.self)
            app.list("/lines") { _ in ChangingController(version: 1) }
        }
        for (name, type) in Self.types {
            let response = try server.get("/static/" + name)
            #expect(response.status == 200, "\(name)")
            #expect(response.body == SiteAssets.files[name], "\(name)")
            #expect(response.headers["Content-Type"]?.hasPrefix(type) == true, "\(name)")
            #expect(response.headers["Cache-Control"] == "public, max-age=3600")
            let etag = try #require(response.headers["ETag"])
            #expect(try server.get("/static/" + name, headers: [("If-None-Match", etag)]).status == 304)
        }
        #expect(try server.get("/static/prototypes/SubtitleCell.html").status == 404)
        #expect(try server.get("/static/../Package.swift").status == 404)
    }

    @Test func aFileInThePublicFolderReplacesTheBuiltInOne() throws {
        let folder = try TemporaryFolder()
        try folder.write("app.css", "body { color: teal }\n")
        let server = try TestServer(publicDirectory: folder.path) { app in
            try app.register(PlainTextCell.self)
            app.list("/lines") { _ in ChangingController(version: 1) }
        }
        #expect(try server.get("/static/app.css").text == "body { color: teal }\n")
        #expect(try server.get("/static/app.js").body == SiteAssets.files["app.js"])
    }

    /// The pages link to the built-in files.
    @Test func theBuiltInFilesAreWhatThePagesLinkTo() throws {
        let page = try TestServer.showcase().get("/people").text
        for name in Self.types.keys { #expect(page.contains("\"/static/\(name)\""), "\(name)") }
    }

    /// `Sources/Cellar/Site/Assets/`, where the files' text is kept, read from the repository.
    static let assetsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/Cellar/Site/Assets").standardizedFileURL.path

    static func assetFile(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: assetsFolder + "/" + name)))
    }

    /// What a browser gets is the files as they are in the repository, byte for byte: `app.css`
    /// and `app.js` their parts one after the other, in the order they are registered.
    @Test func whatIsServedIsTheAssetFiles() throws {
        let server = try TestServer.showcase()
        var stylesheet: [UInt8] = []
        for (part, _) in SiteAssets.stylesheetParts { stylesheet += try Self.assetFile(part) }
        var script: [UInt8] = []
        for (part, _) in SiteAssets.scriptParts { script += try Self.assetFile(part) }
        #expect(stylesheet.starts(with: Array("/* Cellar".utf8)))
        #expect(script.starts(with: Array("// Cellar".utf8)))
        #expect(try server.get("/static/app.css").body == stylesheet)
        #expect(try server.get("/static/app.js").body == script)
        #expect(try server.get("/static/favicon.svg").body == Self.assetFile("favicon.svg"))
    }

    /// A file in the folder that nothing serves is a part someone forgot to register.
    @Test func everyAssetFileIsServed() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.assetsFolder).filter { !$0.hasPrefix(".") }
        let stylesheetParts = SiteAssets.stylesheetParts.map(\.key)
        let scriptParts = SiteAssets.scriptParts.map(\.key)
        #expect(Set(names) == Set(stylesheetParts + scriptParts + ["favicon.svg"]))
        // The base file first, then its parts by name, as the mock server (Tests/e2e) serves them.
        #expect(stylesheetParts == ["app.css"] + stylesheetParts.dropFirst().sorted())
        #expect(scriptParts == ["app.js"] + scriptParts.dropFirst().sorted())
    }
}
