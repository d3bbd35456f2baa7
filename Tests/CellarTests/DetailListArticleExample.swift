import Cellar
import TableKit

// The Swift of Cellar.docc/DetailLists.md, verbatim but for the `DetailListArticle` namespace and
// `mount(on:recipes:pantry:)`, which gives the article's calls their `app` and data (and
// `PantryController`, which the article names only). Keep the two
// in step (DetailListTests checks each line of the article is here). DetailListTests serves it.
enum DetailListArticle {
    struct Ingredient: Encodable, Sendable {
        let name: String
        let quantity: String
    }

    struct Recipe: Sendable {
        let id: String
        let name: String
        let ingredients: [Ingredient]
    }

    /// A row of one line of text, a link to its detail when its list has details.
    final class LineCell: TableViewCell, ConfigurableCell {
        var text = ""

        func configure(with text: String) { self.text = text }
        override func prepareForReuse() { text = "" }
        override func render(into html: inout HTMLWriter) throws {
            html.openSelectionLink(selection)
            html.element("span", class: "cell-title", text: text)
            html.closeSelectionLink(selection)
        }
    }

    /// The recipes: selecting one shows its ingredients.
    struct RecipesController: TableController {
        let recipes: [Recipe]

        func numberOfRows(inSection section: Int) -> Int { recipes.count }
        func identifier(forRowAt indexPath: IndexPath) -> String { recipes[indexPath.row].id }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(for: indexPath, cell: LineCell.self, data: recipes[indexPath.row].name)
        }
    }

    /// One recipe's ingredients: a list of its own, titled by the recipe.
    struct IngredientsController: TableController {
        let recipe: Recipe

        var title: String { recipe.name }
        func numberOfRows(inSection section: Int) -> Int { recipe.ingredients.count }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            let ingredient = recipe.ingredients[indexPath.row]
            return DataCellProvider(for: indexPath, cell: LineCell.self, data: "\(ingredient.quantity) \(ingredient.name)")
        }
        func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { recipe.ingredients[indexPath.row] }
    }

    /// The pantry's quantities by name, for the `RowDetail` sample.
    struct PantryController: TableController {
        let pantry: [String: String]

        func numberOfRows(inSection section: Int) -> Int { pantry.count }
        func identifier(forRowAt indexPath: IndexPath) -> String { pantry.keys.sorted()[indexPath.row] }
        func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
            DataCellProvider(for: indexPath, cell: LineCell.self, data: pantry.keys.sorted()[indexPath.row])
        }
    }

    /// The article's mounting, with its data given.
    static func mount(on app: App, recipes: [Recipe], pantry: [String: String]) throws {
        try app.register(LineCell.self)
        app.list(
            "/recipes", title: "Recipes",
            detail: { id, _ in
                recipes.first { $0.id == id }.map { IngredientsController(recipe: $0) }
            }
        ) { _ in RecipesController(recipes: recipes) }
        app.list(
            "/pantry", title: "Pantry",
            detail: { id, _ in
                pantry[id].map { RowDetail(title: id, fields: [.init("Quantity", $0)]) }
            }
        ) { _ in PantryController(pantry: pantry) }
    }
}
