import Cellar
import Foundation
import HTTPTestSupport
import Synchronization
import TableKit
import Testing

/// A detail that is a list (`app.list(_:detail:_:)`), over sockets: its page in the frame with a
/// way back, its JSON, fragment, paging and live watching as any list's; an unknown row is a 404
/// that names it; a `RowDetail` closure; the grants it inherits and its own; the article's Swift.
@Suite struct DetailListTests {
    typealias Recipe = DetailListArticle.Recipe
    typealias Ingredient = DetailListArticle.Ingredient

    static let recipes = [
        Recipe(
            id: "pancakes", name: "Pancakes",
            ingredients: [
                Ingredient(name: "flour", quantity: "200 g"), Ingredient(name: "milk", quantity: "300 ml"),
                Ingredient(name: "eggs", quantity: "2"),
            ]),
        Recipe(id: "toast", name: "Toast", ingredients: [Ingredient(name: "bread", quantity: "2 slices")]),
    ]
    static let pantry = ["flour": "1 kg", "sugar <&>": "500 g"]

    static func server(_ configure: (App) throws -> Void = { _ in }) throws -> TestServer {
        try TestServer(validating: true) { app in
            try DetailListArticle.mount(on: app, recipes: recipes, pantry: pantry)
            try configure(app)
        }
    }

    @Test func aRowLinksToItsDetailListWhosePageIsInTheFrameWithAWayBack() throws {
        let server = try Self.server()
        #expect(try server.get("/recipes").text.contains(#"<a class="cell-link" href="/recipes/pancakes">"#))
        let page = try server.get("/recipes/pancakes")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        let html = page.text
        #expect(html.contains("<title>Pancakes · Cellar</title>"))
        #expect(html.contains(#"<p><a href="/recipes">Back to Recipes</a></p>"# + "\n<h1>Pancakes</h1>"))
        // The navigation marks the parent list as the current one.
        #expect(html.contains(#"<a href="/recipes" aria-current="page">Recipes</a>"#))
        #expect(html.contains(#"<span class="cell-title">200 g flour</span>"#))
        #expect(html.contains(#"<span class="cell-title">2 eggs</span>"#))
        // Its rows have no detail of their own, so no link: a span, not an `<a>` without `href`.
        #expect(!html.contains(#"href="/recipes/pancakes/"#))
        #expect(html.contains(#"<span class="cell-link"><span class="cell-title">200 g flour</span></span>"#))
        #expect(!html.contains(#"<a class="cell-link">"#))
        #expect(html.contains(#"data-list="recipes/pancakes""#))
    }

    @Test func itsJSONTwinIsAListsJSON() throws {
        let server = try Self.server()
        for (target, accept) in [("/recipes/pancakes.json", false), ("/recipes/pancakes", true)] {
            let list = try server.list(target, accept: accept)
            #expect(list.title == "Pancakes")
            #expect(list.list == "/recipes/pancakes")
            #expect(list.meta.total == 3)
            #expect(list.rows.map(\.cell) == ["LineCell", "LineCell", "LineCell"])
            let first = list.rows.first?.item
            #expect(first?["name"] == .string("flour"))
            #expect(first?["quantity"] == .string("200 g"))
            #expect(list.rows.allSatisfy { $0.href == nil })
        }
    }

    @Test func itPagesAndAnswersItsRowsFragment() throws {
        let server = try Self.server()
        let second = try server.get("/recipes/pancakes.json?offset=1&limit=1")
        #expect(second.status == 200)
        let link = try #require(second.headers["Link"])
        #expect(link.contains("</recipes/pancakes.json?offset=2&limit=1>; rel=\"next\""), "\(link)")
        #expect(link.contains("</recipes/pancakes.json?offset=0&limit=1>; rel=\"prev\""), "\(link)")
        let list = try ListJSON(parsing: second.body)
        #expect(list.rows.compactMap { $0.item?["name"]?.string } == ["milk"])
        let fragment = try server.get("/recipes/pancakes?fragment=rows&offset=2&limit=1")
        #expect(fragment.status == 200)
        #expect(!fragment.text.contains("<!doctype html>"))
        #expect(fragment.text.contains(#"<span class="cell-title">2 eggs</span>"#))
        #expect(!fragment.text.contains("flour"))
    }

    @Test func anUnknownRowIsA404ThatNamesIt() throws {
        let server = try Self.server()
        let page = try server.get("/recipes/waffles")
        #expect(page.status == 404)
        #expect(page.text.contains("Recipes has no row “waffles”."))
        let json = try server.get("/recipes/waffles.json")
        #expect(json.status == 404)
        #expect(json.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(try json.json()["error"]?["message"]?.string?.contains("Recipes has no row “waffles”.") == true)
        // Markup in the identifier is text in the message; a NUL and a huge one are 404s too.
        let hostile = try server.get("/recipes/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
        #expect(hostile.status == 404)
        #expect(!hostile.text.contains("<script>alert(1)"))
        #expect(hostile.text.contains("&lt;script&gt;alert(1)"))
        #expect(try server.get("/recipes/a%00b").status == 404)
        #expect(try server.get("/recipes/" + String(repeating: "x", count: 4000)).status == 404)
        // The parent list still answers.
        #expect(try server.get("/recipes").status == 200)
    }

    @Test func aRowDetailClosureMakesTheRowsFields() throws {
        let server = try Self.server()
        #expect(try server.get("/pantry").text.contains(#"href="/pantry/flour""#))
        let page = try server.get("/pantry/flour")
        #expect(page.status == 200)
        #expect(page.text.contains("<h1>flour</h1>"))
        #expect(page.text.contains("<dt>Quantity</dt><dd>1 kg</dd>"))
        #expect(page.text.contains(#"<a href="/pantry">Back to Pantry</a>"#))
        let json = try server.get("/pantry/flour.json").json()
        #expect(json["title"] == .string("flour"))
        #expect(json["cell"] == .null)
        #expect(json["fields"]?[0]?["value"] == .string("1 kg"))
        #expect(json["links"]?["self"] == .string("/pantry/flour"))
        let escaped = try server.get("/pantry/sugar%20%3C%26%3E")
        #expect(escaped.status == 200)
        #expect(escaped.text.contains("<h1>sugar &lt;&amp;&gt;</h1>"))
        #expect(try server.get("/pantry/salt").status == 404)
    }

    /// The recipes, changed while they are watched.
    final class RecipeBook: Sendable {
        private let recipes = Mutex(DetailListTests.recipes)
        var all: [Recipe] { recipes.withLock { $0 } }
        func add(_ ingredient: Ingredient, to id: String) {
            recipes.withLock { recipes in
                guard let index = recipes.firstIndex(where: { $0.id == id }) else { return }
                let recipe = recipes[index]
                recipes[index] = Recipe(id: recipe.id, name: recipe.name, ingredients: recipe.ingredients + [ingredient])
            }
        }
    }

    @Test func aWatchedDetailListGetsWhatChanged() throws {
        let book = RecipeBook()
        let server = try TestServer { app in
            try app.register(DetailListArticle.LineCell.self)
            app.list(
                "/recipes", title: "Recipes",
                detail: { id, _ in
                    book.all.first { $0.id == id }.map { DetailListArticle.IngredientsController(recipe: $0) }
                }
            ) { _ in DetailListArticle.RecipesController(recipes: book.all) }
        }
        let client = try EventStreamClient(port: server.port, target: "/recipes/toast")
        #expect(client.status == 200)
        #expect(client.header("Content-Type") == "text/event-stream")
        book.add(Ingredient(name: "butter", quantity: "10 g"), to: "toast")
        server.app.listDidChange(at: "/recipes/toast")
        let batch = try LiveListTests.nextBatch(client)
        #expect(batch.data.contains("<turbo-stream"), "\(batch.data)")
        #expect(batch.data.contains("10 g butter"), "\(batch.data)")
        client.close()
        // Watching a row that does not exist is the same 404 as its page.
        let missing = try EventStreamClient(port: server.port, target: "/recipes/waffles")
        #expect(missing.status == 404)
        missing.close()
    }

    @Test func itIsViewedByWhoeverMayViewItsListUnlessItHasGrantsOfItsOwn() throws {
        let inherited = try SignInFixture.server { app in
            try DetailListArticle.mount(on: app, recipes: Self.recipes, pantry: Self.pantry)
            app.access.permissions.grant(.view, on: "/recipes", to: "editors")
        }
        let alice = try inherited.signIn("alice", SignInFixture.alicePassword)
        let bob = try inherited.signIn("bob", SignInFixture.bobPassword)
        #expect(try inherited.get("/recipes/pancakes.json").status == 401)
        #expect(try inherited.get("/recipes/pancakes", headers: [("Accept", "text/html")]).status == 303)
        #expect(try inherited.get("/recipes/pancakes.json", headers: [("Cookie", bob)]).status == 403)
        let allowed = try inherited.get("/recipes/pancakes.json", headers: [("Cookie", alice)])
        #expect(allowed.status == 200)
        #expect(allowed.headers["Cache-Control"] == "private, no-cache")

        let own = try SignInFixture.server { app in
            try DetailListArticle.mount(on: app, recipes: Self.recipes, pantry: Self.pantry)
            app.access.permissions.grant(.view, on: Permissions.detailKey(of: "/recipes"), to: "bob")
        }
        let bobToo = try own.signIn("bob", SignInFixture.bobPassword)
        let aliceToo = try own.signIn("alice", SignInFixture.alicePassword)
        #expect(try own.get("/recipes.json").status == 200)
        #expect(try own.get("/recipes/pancakes.json").status == 401)
        #expect(try own.get("/recipes/pancakes.json", headers: [("Cookie", aliceToo)]).status == 403)
        #expect(try own.get("/recipes/pancakes.json", headers: [("Cookie", bobToo)]).status == 200)
        #expect(try own.get("/recipes/pancakes?fragment=rows", headers: [("Cookie", bobToo)]).status == 200)
    }

    @Test func grantsUnderADetailKeyReplaceTheListsForTheActionsTheyName() {
        var permissions = Permissions()
        permissions.grant(.view, on: "recipes", to: "cooks")
        permissions.grant(.update, on: "/recipes/:id", to: "chefs")
        #expect(permissions.grantees(of: .view, path: "/recipes/:id") == ["cooks"])
        #expect(permissions.grantees(of: .update, path: "/recipes/:id") == ["chefs"])
        #expect(permissions.grantees(of: .update, path: "/recipes") == [])
        #expect(Permissions.listPath(of: "/recipes/:id") == "/recipes")
        #expect(Permissions.listPath(of: "/recipes") == "/recipes")
    }

    /// Every line of the article's Swift is a line of DetailListArticleExample.swift (`import`
    /// lines aside; a function of the article's is `static` there), so an edit to one shows in the other.
    @Test func theArticlesSwiftIsTheSwiftCompiledHere() throws {
        let article = try String(contentsOfFile: Repository.root + "/Sources/Cellar/Cellar.docc/DetailLists.md", encoding: .utf8)
        let example = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("DetailListArticleExample.swift")
                .path,
            encoding: .utf8)
        let exampleLines = Set(example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var inSwift = false
        var checked = 0
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```swift" {
                inSwift = true
                continue
            }
            if line == "```" {
                inSwift = false
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard inSwift, !trimmed.isEmpty, !trimmed.hasPrefix("import ") else { continue }
            #expect(exampleLines.contains(trimmed), "DetailLists.md has a line the example does not: \(trimmed)")
            checked += 1
        }
        #expect(checked > 40)
    }
}
