import Cellar
import Synchronization

// The Swift of Cellar.docc/PagesAndRoutes.md, verbatim but for the `PagesArticle` namespace and
// `addPages(to:store:)`, which gives the article's calls their `app` and `store`. Keep the two in step. This
// file imports Cellar alone (and the standard library's Synchronization): what a page, a route
// and a middleware need is reachable from the Cellar product. PagesAndRoutesTests serves it.
enum PagesArticle {
    /// The notes, kept in memory.
    final class NoteStore: Sendable {
        private let notes = Mutex<[String]>([])

        var all: [String] { notes.withLock { $0 } }

        func add(_ note: String) { notes.withLock { $0.append(note) } }
    }

    /// Adds a header to every answer, and says how long the server took.
    struct ServerTiming: Middleware {
        func respond(to request: Request, next: (Request) throws -> Response) throws -> Response {
            let start = ContinuousClock.now
            var response = try next(request)
            let elapsed = ContinuousClock.now - start
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            response.headers.replaceOrAdd(name: "Server-Timing", value: "app;dur=\(milliseconds)")
            return response
        }
    }

    static func addPages(to app: App, store: NoteStore) {
        app.page("/notes/new", title: "New note", .get, .post) { request, page in
            if request.method == .post {
                let text = try request.formItems()["text"] ?? ""
                guard !text.isEmpty else { throw HTTPError(.unprocessableContent, "A note needs some text.") }
                store.add(text)
                app.listDidChange(at: "/notes")  // its watchers see the new row
                return page.redirect(to: "/notes")
            }
            page.html.raw(#"<form method="post"><label for="text">Text</label> "#)
            page.html.raw(#"<input id="text" name="text" required> <button type="submit">Add</button></form>"#)
            return .ok
        }

        app.route(.get, "/notes/count") { request in
            guard request.query["format"] != "xml" else { throw HTTPError(.notAcceptable, "Only JSON here.") }
            return .json("{\"count\":\(store.all.count)}")
        }

        app.use(ServerTiming())
    }
}
