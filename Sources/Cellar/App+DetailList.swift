import TableKit

extension App {
    /// Mounts a list whose rows' details are lists of their own: selecting a recipe shows its
    /// ingredients, as selecting a row pushes a view controller on iOS.
    ///
    /// ```swift
    /// app.list("/recipes", title: "Recipes", detail: { id, context in
    ///     recipes.first { $0.id == id }.map { IngredientsController(recipe: $0) }
    /// }) { context in RecipesController(recipes: recipes) }
    /// ```
    ///
    /// `detail` is given the selected row's identifier and the detail list's context; nil means
    /// the list has no such row (404). The detail list at `path/:id` is a list like any other: its
    /// page in the site's frame (with a link back to this list), `path/:id.json`, its rows'
    /// fragment, paging and live watching (``listDidChange(at:)`` with `path/:id`). It is viewed
    /// by whoever may view this list, unless the permissions name it (`/recipes/:id`). Its title
    /// is its controller's ``TableController/title``, or else this list's with the identifier.
    public func list(
        _ path: String, title: String? = nil, summary: String = "", paging: ListPaging = .paged, infiniteScroll: Bool = false,
        acceptsFormPosts: Bool = false, detail: @escaping @Sendable (_ identifier: String, ListContext) throws -> (any TableController)?,
        _ makeController: @escaping @Sendable (ListContext) throws -> any TableController
    ) {
        list(
            path, title: title, summary: summary, paging: paging, infiniteScroll: infiniteScroll, acceptsFormPosts: acceptsFormPosts,
            makeController)
        lists[lists.count - 1].detail = .list(detail)
    }

    /// Mounts a list whose rows' details are made by `detail` rather than by the controller's
    /// ``TableController/detail(forRowAt:)``: given the selected row's identifier, it returns the
    /// row's fields (a ``RowDetail``), or nil when there is no such row (404). The detail's page
    /// and its JSON (`path/:id.json`) are those of any row's.
    public func list(
        _ path: String, title: String? = nil, summary: String = "", paging: ListPaging = .paged, infiniteScroll: Bool = false,
        acceptsFormPosts: Bool = false, detail: @escaping @Sendable (_ identifier: String, ListContext) throws -> RowDetail?,
        _ makeController: @escaping @Sendable (ListContext) throws -> any TableController
    ) {
        list(
            path, title: title, summary: summary, paging: paging, infiniteScroll: infiniteScroll, acceptsFormPosts: acceptsFormPosts,
            makeController)
        lists[lists.count - 1].detail = .fields(detail)
    }
}
