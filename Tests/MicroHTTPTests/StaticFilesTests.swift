import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing

/// A temporary `Public/` root with a secret file and a `Package.swift` beside it (outside the root).
final class TemporaryRoot {
    static let secret = "TOP-SECRET-OUTSIDE-THE-ROOT"
    let base: URL
    var root: String { base.appendingPathComponent("Public").path }

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("microhttp-\(UUID().uuidString)")
        let public_ = base.appendingPathComponent("Public")
        let files = FileManager.default
        try files.createDirectory(at: public_.appendingPathComponent("css/sub"), withIntermediateDirectories: true)
        try files.createDirectory(at: base.appendingPathComponent("outside"), withIntermediateDirectories: true)
        func write(_ path: String, _ text: String, in directory: URL? = nil) throws {
            try Data(text.utf8).write(to: (directory ?? public_).appendingPathComponent(path))
        }
        try write("app.css", "body { color: #333 }\n")
        try write("app.js", "console.log('hi')\n")
        try write("index.html", "<!doctype html><title>x</title>\n")
        try write("logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n")
        try write("data.json", "{\"a\":1}\n")
        try write("notes.txt", "notes\n")
        try write("font.woff2", "wOF2")
        try write("site.webmanifest", "{}")
        try write("favicon.ico", "ico")
        try write("blob.bin", "bin")
        try write(".hidden", Self.secret)
        try write("css/sub/deep.css", "p {}\n")
        try write("Package.swift", Self.secret, in: base)
        try write("outside/secret.txt", Self.secret, in: base)
        try files.createSymbolicLink(
            atPath: public_.appendingPathComponent("escape.txt").path, withDestinationPath: base.appendingPathComponent("outside/secret.txt").path)
        try files.createSymbolicLink(
            atPath: public_.appendingPathComponent("escape-dir").path, withDestinationPath: base.appendingPathComponent("outside").path)
        try files.createSymbolicLink(atPath: public_.appendingPathComponent("inside-link.css").path, withDestinationPath: "app.css")
    }

    deinit {
        try? FileManager.default.removeItem(at: base)
    }
}

@Suite struct StaticFilesTests {
    static func router(_ root: TemporaryRoot) -> Router {
        var router = Router()
        router.serveStaticFiles(at: "/static", from: root.root)
        router.get("/hello") { _ in .text("hi") }
        return router
    }

    @Test func contentTypes() throws {
        let root = try TemporaryRoot()
        let expected = [
            "app.css": "text/css; charset=utf-8", "app.js": "text/javascript; charset=utf-8", "index.html": "text/html; charset=utf-8",
            "logo.svg": "image/svg+xml", "data.json": "application/json", "notes.txt": "text/plain; charset=utf-8",
            "font.woff2": "font/woff2", "site.webmanifest": "application/manifest+json", "favicon.ico": "image/x-icon",
            "blob.bin": "application/octet-stream", "css/sub/deep.css": "text/css; charset=utf-8",
            "inside-link.css": "text/css; charset=utf-8",
        ]
        try withServer(Self.router(root)) { server in
            for (path, type) in expected {
                let response = try fetch(server, "/static/\(path)")
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["Content-Type"] == type, "\(path)")
                #expect(response.headers["Cache-Control"] == "public, max-age=3600")
            }
            #expect(try fetch(server, "/static/app.css").text == "body { color: #333 }\n")
        }
    }

    @Test func validatorsAndConditionalRequests() throws {
        let root = try TemporaryRoot()
        try withServer(Self.router(root)) { server in
            let first = try fetch(server, "/static/app.css")
            let etag = try #require(first.headers["ETag"])
            let lastModified = try #require(first.headers["Last-Modified"])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(lastModified.hasSuffix(" GMT"))

            let byTag = try fetch(server, "/static/app.css", headers: [("If-None-Match", etag)])
            #expect(byTag.status == 304)
            #expect(byTag.body.isEmpty)
            #expect(byTag.headers["ETag"] == etag)
            #expect(try fetch(server, "/static/app.css", headers: [("If-None-Match", "\"other\", W/\(etag)")]).status == 304)
            #expect(try fetch(server, "/static/app.css", headers: [("If-None-Match", "\"other\"")]).status == 200)

            let byDate = try fetch(server, "/static/app.css", headers: [("If-Modified-Since", lastModified)])
            #expect(byDate.status == 304)
            let old = try fetch(server, "/static/app.css", headers: [("If-Modified-Since", "Sat, 01 Jan 2000 00:00:00 GMT")])
            #expect(old.status == 200)
            // If-None-Match takes precedence over If-Modified-Since.
            let both = try fetch(server, "/static/app.css", headers: [("If-None-Match", "\"x\""), ("If-Modified-Since", lastModified)])
            #expect(both.status == 200)

            let head = try fetch(server, "/static/app.css", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers["Content-Length"] == "21")
            #expect(head.headers["ETag"] == etag)
        }
    }

    static let hostileTargets = [
        "/static/../Package.swift", "/static/%2e%2e/Package.swift", "/static/%2E%2E/Package.swift", "/static/..%2fPackage.swift",
        "/static/..%2FPackage.swift", "/static/%2e%2e%2fPackage.swift", "/static/%252e%252e/Package.swift",
        "/static/css/../../Package.swift", "/static/./app.css", "/static/%00", "/static/app.css%00.txt", "/static//etc/passwd",
        "//etc/passwd", "/static/..\\Package.swift", "/static/%5c..%5cPackage.swift", "/static\\..\\Package.swift",
        "/static/escape.txt", "/static/escape-dir/secret.txt", "/static/.hidden", "/static/css", "/static/css/", "/static/",
        "/static", "/static/app.css/", "/static/../outside/secret.txt", "/static/%2e%2e%5coutside%5csecret.txt",
        "/static/css/sub/%2e%2e/%2e%2e/%2e%2e/Package.swift", "/static/%EF%BC%8E%EF%BC%8E/Package.swift",
        "/static/nope.css", "/../Package.swift", "/static/app.css?x=../../Package.swift",
    ]

    @Test func traversalMatrix() throws {
        let root = try TemporaryRoot()
        try withServer(Self.router(root)) { server in
            for target in Self.hostileTargets {
                let response = try fetch(server, target)
                #expect(response.status < 500, "\(target) → \(response.status)")
                #expect(!response.text.contains(TemporaryRoot.secret), "\(target) leaked the outside file")
                if target != "/static/app.css?x=../../Package.swift" {
                    #expect(response.status == 404 || response.status == 400, "\(target) → \(response.status)")
                }
            }
            #expect(try fetch(server, "/hello").status == 200)
        }
    }

    @Test func hugePathsNeverCrash() throws {
        let root = try TemporaryRoot()
        try withServer(Self.router(root)) { server in
            for length in [2_000, 16_000, 100_000] {
                let target = "/static/" + String(repeating: "a", count: length)
                do {
                    let response = try fetch(server, target)
                    #expect([400, 404, 414, 431].contains(response.status), "\(length) → \(response.status)")
                } catch let error as TestHTTPClientError {
                    // libmicrohttpd may close the connection instead of answering.
                    #expect(error == .connectionClosed || error == .socketError(errno: ECONNRESET), "\(length): \(error)")
                }
            }
            for target in ["/hello?q=" + String(repeating: "q", count: 100_000), "/" + String(repeating: "%41", count: 40_000)] {
                do {
                    let response = try fetch(server, target)
                    #expect(response.status < 500, "\(target.prefix(20)) → \(response.status)")
                } catch let error as TestHTTPClientError {
                    #expect(error == .connectionClosed || error == .socketError(errno: ECONNRESET), "\(error)")
                }
            }
            do {
                let response = try fetch(server, "/hello", headers: [("X-Huge", String(repeating: "h", count: 200_000))])
                #expect([400, 413, 431].contains(response.status), "huge header → \(response.status)")
            } catch let error as TestHTTPClientError {
                #expect(error == .connectionClosed || error == .socketError(errno: ECONNRESET) || error == .socketError(errno: EPIPE), "\(error)")
            }
            // Heads up to 8 KiB (a quarter of the default connection memory) are read; RequestHeadSizeTests has the edges.
            let big = try fetch(server, "/hello", headers: [("X-Big", String(repeating: "b", count: 8_000))])
            #expect(big.status == 200)
            #expect(try fetch(server, "/hello", headers: [("X-Big", String(repeating: "b", count: 16_000))]).status == 431)
            #expect(try fetch(server, "/hello").status == 200)
        }
    }

    @Test(arguments: StaticFilesTests.hostileTargets)
    func resolveRefusesWithoutTouchingTheDisk(_ target: String) {
        guard target.hasPrefix("/static/"), !target.contains("?") else { return }
        let relative = String(target.dropFirst("/static/".count))
        let decoded = relative.removingPercentEncoding ?? relative
        // Well-formed paths, refused later by the file system checks.
        if ["nope.css", "escape.txt", "escape-dir/secret.txt", "css", "\u{FF0E}\u{FF0E}/Package.swift"].contains(decoded) { return }
        #expect(throws: HTTPError.self, "\(decoded)") { try StaticFiles.resolve(decoded) }
    }

    @Test func resolveAcceptsOrdinaryPaths() throws {
        #expect(try StaticFiles.resolve("app.css") == ["app.css"])
        #expect(try StaticFiles.resolve("css/sub/deep.css") == ["css", "sub", "deep.css"])
        #expect(try StaticFiles.resolve("name with space.txt") == ["name with space.txt"])
        #expect(throws: HTTPError.self) { try StaticFiles.resolve(String(repeating: "a/", count: 600) + "x") }
        do {
            _ = try StaticFiles.resolve(String(repeating: "a", count: 2_000))
        } catch { #expect(error.status == .uriTooLong) }
    }

    @Test func httpDatesRoundTrip() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("garbage") == nil)
    }
}

/// Files kept in memory: served without the disk until they are checked again, and never
/// staler than that check, nor from outside the root.
@Suite struct StaticFilesInMemoryTests {
    static func get(_ files: StaticFiles, _ path: String, headers: HTTPHeaders = HTTPHeaders()) throws -> Response {
        try files.response(for: path, request: try Request(target: "/static/" + path, headers: headers))
    }

    static func text(_ response: Response) -> String? {
        guard let bytes = response.body.bufferedBytes else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func aFileReadOnceIsServedFromMemoryWithTheSameHeaders() throws {
        let root = try TemporaryRoot()
        let files = StaticFiles(root: root.root, revalidationInterval: .seconds(3600))
        let first = try Self.get(files, "app.css")
        #expect(files.bytesInMemory == 21)
        // Gone from the disk: only memory can answer now, and does, with the same answer.
        try FileManager.default.removeItem(atPath: root.root + "/app.css")
        let second = try Self.get(files, "app.css")
        #expect(Self.text(second) == "body { color: #333 }\n")
        #expect(second.status == .ok)
        for name in ["ETag", "Last-Modified", "Cache-Control", "Content-Type"] {
            #expect(second.headers[name] == first.headers[name], "\(name)")
        }
        let etag = try #require(first.headers["ETag"])
        #expect(try Self.get(files, "app.css", headers: ["If-None-Match": etag]).status == .notModified)
        #expect(try Self.get(files, "app.css", headers: ["If-None-Match": "\"other\""]).status == .ok)
        let lastModified = try #require(first.headers["Last-Modified"])
        #expect(try Self.get(files, "app.css", headers: ["If-Modified-Since": lastModified]).status == .notModified)
        // Memory is looked up by the path as given: other spellings of a kept file are not in
        // it, and are still refused.
        _ = try Self.get(files, "css/sub/deep.css")
        for hostile in [
            "app.css/", "/app.css", "./app.css", "css//sub/deep.css", "css/sub/../sub/deep.css", "css/sub/./deep.css", "css\\sub\\deep.css",
        ] {
            #expect(throws: HTTPError.self, "\(hostile)") { try Self.get(files, hostile) }
        }
    }

    @Test func anEditedFileIsReadAgainOnceChecked() throws {
        let root = try TemporaryRoot()
        let files = StaticFiles(root: root.root, revalidationInterval: .zero)
        let first = try Self.get(files, "app.css")
        #expect(Self.text(try Self.get(files, "app.css")) == "body { color: #333 }\n")
        // A new size; then the same size with a later time: both are noticed.
        try Self.write("body { color: red }\n", to: root.root + "/app.css")
        let edited = try Self.get(files, "app.css")
        #expect(Self.text(edited) == "body { color: red }\n")
        #expect(edited.headers["ETag"] != first.headers["ETag"])
        var later = timespec(tv_sec: Int(Date().timeIntervalSince1970) + 60, tv_nsec: 0)
        try Self.write("body { color: RED }\n", to: root.root + "/app.css")
        withUnsafePointer(to: &later) { time in
            var times = [time.pointee, time.pointee]
            _ = utimensat(AT_FDCWD, root.root + "/app.css", &times, 0)
        }
        #expect(Self.text(try Self.get(files, "app.css")) == "body { color: RED }\n")
        #expect(files.bytesInMemory == 20)
    }

    @Test func aRemovedFileOrOneTurnedIntoALinkOutsideGets404() throws {
        let root = try TemporaryRoot()
        let files = StaticFiles(root: root.root, revalidationInterval: .zero)
        #expect(Self.text(try Self.get(files, "app.js")) == "console.log('hi')\n")
        #expect(Self.text(try Self.get(files, "css/sub/deep.css")) == "p {}\n")
        try FileManager.default.removeItem(atPath: root.root + "/app.js")
        #expect(throws: HTTPError.self) { try Self.get(files, "app.js") }
        // The same name, now a link to the secret outside the root.
        try FileManager.default.createSymbolicLink(atPath: root.root + "/app.js", withDestinationPath: root.base.path + "/outside/secret.txt")
        #expect(throws: HTTPError.self) { try Self.get(files, "app.js") }
        // A directory on the way replaced by a link outside.
        try FileManager.default.removeItem(atPath: root.root + "/css/sub")
        try FileManager.default.createSymbolicLink(atPath: root.root + "/css/sub", withDestinationPath: root.base.path + "/outside")
        try Self.write("p {}\n", to: root.base.path + "/outside/deep.css")
        #expect(throws: HTTPError.self) { try Self.get(files, "css/sub/deep.css") }
        #expect(files.bytesInMemory == 0)
    }

    @Test func memoryHoldsNoMoreThanItsLimitAndLargeFilesStream() throws {
        let root = try TemporaryRoot()
        let files = StaticFiles(root: root.root, memoryLimit: 30)
        _ = try Self.get(files, "app.css")  // 21 bytes
        _ = try Self.get(files, "app.js")  // 18 more would pass the limit: read from disk each time
        #expect(files.bytesInMemory == 21)
        try FileManager.default.removeItem(atPath: root.root + "/app.js")
        #expect(throws: HTTPError.self) { try Self.get(files, "app.js") }

        let none = StaticFiles(root: root.root, memoryLimit: 0)
        _ = try Self.get(none, "app.css")
        #expect(none.bytesInMemory == 0)

        let big = String(repeating: "x", count: StaticFiles.inMemoryLimit + 1)
        try Self.write(big, to: root.root + "/big.txt")
        let unlimited = StaticFiles(root: root.root, memoryLimit: .max)
        let response = try Self.get(unlimited, "big.txt")
        guard case .stream = response.body else {
            Issue.record("a file over inMemoryLimit streams")
            return
        }
        #expect(unlimited.bytesInMemory == 0)
    }

    @Test func threadsSharingTheFilesAgree() async throws {
        let root = try TemporaryRoot()
        let files = StaticFiles(root: root.root, revalidationInterval: .zero)
        let texts = await withTaskGroup(of: String?.self) { group in
            for index in 0..<64 {
                group.addTask { try? Self.text(Self.get(files, index % 2 == 0 ? "app.css" : "css/sub/deep.css")) }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(texts.count == 64)
        #expect(texts.allSatisfy { $0 == "body { color: #333 }\n" || $0 == "p {}\n" })
        #expect(files.bytesInMemory == 26)
    }
}

/// Fallbacks: bytes held by the program, served where the root has nothing, with a file's headers.
@Suite struct StaticFilesFallbackTests {
    static let css = Array("main { margin: 0 }\n".utf8)
    static let fallbacks: [String: [UInt8]] = [
        "default.css": css, "app.css": Array("/* built in */\n".utf8), "img/logo.svg": Array("<svg/>\n".utf8),
    ]

    static func get(_ files: StaticFiles, _ path: String, headers: HTTPHeaders = HTTPHeaders()) throws -> Response {
        try StaticFilesInMemoryTests.get(files, path, headers: headers)
    }

    static func text(_ response: Response) -> String? { StaticFilesInMemoryTests.text(response) }

    @Test func aFallbackIsServedWithAFilesHeadersAndValidators() throws {
        let root = try TemporaryRoot()
        var router = Router()
        router.serveStaticFiles(at: "/static", from: root.root, fallbacks: Self.fallbacks)
        try withServer(router) { server in
            let response = try fetch(server, "/static/default.css")
            #expect(response.status == 200)
            #expect(response.body == Self.css)
            #expect(response.headers["Content-Type"] == "text/css; charset=utf-8")
            #expect(response.headers["Cache-Control"] == "public, max-age=3600")
            #expect(response.headers["Last-Modified"] == nil)
            let etag = try #require(response.headers["ETag"])
            #expect(etag.count == 18 && etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(etag.dropFirst().dropLast().allSatisfy { $0.isHexDigit })
            #expect(try fetch(server, "/static/img/logo.svg").headers["Content-Type"] == "image/svg+xml")

            let notModified = try fetch(server, "/static/default.css", headers: [("If-None-Match", etag)])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified.headers["ETag"] == etag)
            #expect(try fetch(server, "/static/default.css", headers: [("If-None-Match", "\"other\"")]).status == 200)
            // Without a modification time, If-Modified-Since cannot match.
            let since = [("If-Modified-Since", "Sun, 06 Nov 2094 08:49:37 GMT")]
            #expect(try fetch(server, "/static/default.css", headers: since).status == 200)
            let head = try fetch(server, "/static/default.css", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.headers["Content-Length"] == String(Self.css.count))
            #expect(try fetch(server, "/static/other.css").status == 404)
        }
    }

    @Test func aFileInTheRootReplacesTheFallbackOfItsName() throws {
        let root = try TemporaryRoot()
        let files = StaticFiles(root: root.root, fallbacks: Self.fallbacks)
        let response = try Self.get(files, "app.css")
        #expect(Self.text(response) == "body { color: #333 }\n")
        #expect(response.headers["Last-Modified"] != nil)
    }

    @Test func withoutARootEveryFallbackIsServed() throws {
        let root = try TemporaryRoot()
        let files = StaticFiles(root: root.base.path + "/no-such-folder", fallbacks: Self.fallbacks)
        #expect(Self.text(try Self.get(files, "app.css")) == "/* built in */\n")
        #expect(Self.text(try Self.get(files, "img/logo.svg")) == "<svg/>\n")
        #expect(throws: HTTPError.self) { try Self.get(files, "index.html") }
    }

    @Test func aFileAddedOrRemovedIsNoticedOnceChecked() throws {
        let root = try TemporaryRoot()
        let files = StaticFiles(root: root.root, revalidationInterval: .zero, fallbacks: Self.fallbacks)
        let builtIn = try Self.get(files, "default.css")
        #expect(Self.text(builtIn) == "main { margin: 0 }\n")
        #expect(Self.text(try Self.get(files, "default.css")) == "main { margin: 0 }\n")
        try StaticFilesInMemoryTests.write("main { margin: 1em }\n", to: root.root + "/default.css")
        let added = try Self.get(files, "default.css")
        #expect(Self.text(added) == "main { margin: 1em }\n")
        #expect(added.headers["ETag"] != builtIn.headers["ETag"])
        try FileManager.default.removeItem(atPath: root.root + "/default.css")
        let again = try Self.get(files, "default.css")
        #expect(Self.text(again) == "main { margin: 0 }\n")
        #expect(again.headers["ETag"] == builtIn.headers["ETag"])
    }

    /// A path the checks refuse, or one the root holds but will not serve, is still 404 (or 414)
    /// when a fallback of that very name exists.
    @Test func aRefusedPathNeverFallsBack() throws {
        let root = try TemporaryRoot()
        try FileManager.default.createSymbolicLink(atPath: root.root + "/gone.css", withDestinationPath: root.root + "/nothing-here.css")
        let marker = "FALLBACK"
        var fallbacks: [String: [UInt8]] = [:]
        for path in ["escape.txt", "escape-dir/secret.txt", "css", "gone.css", "Package.swift", "outside/secret.txt"] {
            fallbacks[path] = Array(marker.utf8)
        }
        var router = Router()
        router.serveStaticFiles(at: "/static", from: root.root, fallbacks: fallbacks)
        try withServer(router) { server in
            let targets =
                StaticFilesTests.hostileTargets + [
                    "/static/escape.txt", "/static/escape-dir/secret.txt", "/static/css", "/static/gone.css", "/static/css/",
                    "/static/./escape.txt", "/static/css/../escape.txt", "/static/%2e%2e/outside/secret.txt",
                ]
            for target in targets {
                let response = try fetch(server, target)
                #expect(!response.text.contains(marker), "\(target) fell back")
                #expect(!response.text.contains(TemporaryRoot.secret), "\(target) leaked the outside file")
                if target != "/static/app.css?x=../../Package.swift" {
                    #expect(response.status == 404 || response.status == 400, "\(target) → \(response.status)")
                }
            }
        }
        let long = String(repeating: "a", count: StaticFiles.maxPathLength + 1)
        let files = StaticFiles(root: root.root, fallbacks: [String(long.dropLast()): Array(marker.utf8)])
        do {
            _ = try Self.get(files, long)
            Issue.record("a path over the limit was served")
        } catch let error as HTTPError { #expect(error.status == .uriTooLong) }
    }
}
