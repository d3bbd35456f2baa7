import TableKit

/// What a list's detail route, `path/:id`, answers with when the list was mounted with a
/// `detail:` closure (`app.list("/recipes", detail: { id, context in … }) { … }`):
/// a table controller of its own, as selecting a row pushes a view controller on iOS, or a
/// ``RowDetail``. Nil from either closure: the list has no such row (404).
enum ListRouteDetail: Sendable {
    case list(@Sendable (_ identifier: String, ListContext) throws -> (any TableController)?)
    case fields(@Sendable (_ identifier: String, ListContext) throws -> RowDetail?)
}

/// The list a detail list's row was selected from: its back link, and the navigation's current entry.
struct ParentList: Sendable {
    let title: String
    let href: String
}

extension ListRoute {
    /// The route of the detail list of row `identifier` (`/recipes/3`): made per request, it pages,
    /// renders, answers JSON and is watched as any list is. Its title is its controller's
    /// (``TableController/title``), or else the parent's with the row's identifier.
    init(detailOf parent: ListRoute, identifier: String, makeController: @escaping ControllerFactory) {
        let selection = RowSelection(base: parent.href, identifier: identifier)
        path = parent.path + "/" + identifier
        href = selection.href
        title = parent.title + ": " + identifier
        hasTitleOfItsOwn = false
        summary = ""
        paging = .paged
        infiniteScroll = false
        // A detail list's rows have no detail of their own: a row's link would be `/recipes/3/…`,
        // which no route answers.
        hasDetail = false
        acceptsFormPosts = false
        self.makeController = makeController
        listName = String(path.dropFirst())
        self.parent = ParentList(title: parent.title, href: parent.href)
    }

    /// The path the navigation marks as current: a detail list's parent's.
    var navigationHref: String { parent?.href ?? href }
}

extension ListRoute {
    /// This route titled by `controller` when it is a detail list and the controller has a title.
    func titled(by controller: any TableController) -> ListRoute {
        guard parent != nil, !controller.title.isEmpty else { return self }
        var titled = self
        titled.title = controller.title
        return titled
    }
}
