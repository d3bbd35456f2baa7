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

    /// The pages link to the built-in files, and each is the text a browser gets: no stray
    /// indentation from its Swift literal.
    @Test func theBuiltInFilesAreWhatThePagesLinkTo() throws {
        let page = try TestServer.showcase().get("/people").text
        for name in Self.types.keys { #expect(page.contains("\"/static/\(name)\""), "\(name)") }
        #expect(SiteAssets.stylesheet.hasPrefix("/* Cellar"))
        #expect(SiteAssets.script.hasPrefix("// Cellar"))
        #expect(SiteAssets.favicon.hasPrefix("<svg "))
    }
}
