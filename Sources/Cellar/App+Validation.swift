import Logging
import MicroHTTP
import TableKit

extension App {
    /// Checks what can be checked before serving, and settles each list's title.
    ///
    /// Every route pattern must be valid, every form must render with fields of distinct names,
    /// and every list must render, in each of its formats (page, JSON, CSV: ``ListFormat``), its
    /// first page and its last (so a cell provider that fails only further down is found too when
    /// it fails there). A list mounted without a title takes its controller's; a controller whose
    /// title differs from the one its list was mounted with is reported as a warning. What lies
    /// between the first and the last page is not checked here: a row whose cell fails there is
    /// served as an error cell (``RowErrorHandling``), logged and counted. Call it before ``makeRouter()``;
    /// ``run(siteName:version:arguments:_:)`` does.
    public func validate() throws {
        let listPatterns = lists.flatMap { route in [route.path, route.path + "/:id"] + ListFormat.named.map { route.path(for: $0) } }
        for pattern in listPatterns + extraRoutes.map(\.pattern) {
            if let problem = Router.problem(withPattern: pattern) { throw StartupError.invalidRoutePattern(pattern, reason: problem) }
        }
        // Each list's first-page controller, made once: it settles the title and the pages to check.
        var pagesToCheck: [String: [String]] = [:]
        for index in lists.indices {
            let route = lists[index]
            let controller = try firstPageController(of: route)
            pagesToCheck[route.path] = checkedPages(of: route, total: controller.totalNumberOfRows)
            let controllerTitle = controller.title
            if !route.hasTitleOfItsOwn, !controllerTitle.isEmpty {
                lists[index].title = controllerTitle
            } else if route.hasTitleOfItsOwn, !controllerTitle.isEmpty, controllerTitle != route.title {
                logger.warning(
                    "a list's controller has a title of its own; the list's title is shown everywhere",
                    metadata: ["list": "\(route.path)", "title": "\(route.title)", "controller_title": "\(controllerTitle)"])
            }
        }
        let responder = ListResponder(app: snapshot())
        let audit = PrototypeTagAudit(registry: registry)
        var checked = 0
        for route in lists + (indexRoute.map { [$0] } ?? []) {
            let targets = try pagesToCheck[route.path] ?? checkedPages(of: route, total: firstPageController(of: route).totalNumberOfRows)
            for (number, target) in targets.enumerated() {
                let request = try Request(target: target)
                do {
                    // A format that writes the whole list is the same for every page: checked once.
                    for format in ListFormat.registered where format != .fragment && (number == 0 || !format.writesWholeList) {
                        _ = try responder.renderWhole(request, route: route, format: format)
                    }
                    try checkRows(of: route, request: request, audit: audit)
                } catch {
                    throw StartupError.listDoesNotRender(path: target, reason: String(describing: error))
                }
            }
            checked += 1
        }
        let formSnapshot = snapshot()
        for form in formChecks {
            do {
                try form.check(formSnapshot)
            } catch {
                throw StartupError.formDoesNotRender(path: form.path, reason: String(describing: error))
            }
        }
        for warning in audit.warnings {
            logger.warning(
                "a prototype's tag is answered by no row's data",
                metadata: [
                    "prototype": "\(warning.identifier)", "file": "\(warning.file ?? "")", "line": "\(warning.line)",
                    "column": "\(warning.column)", "tag": "\(warning.tag)", "detail": "\(warning)",
                ])
        }
        if !audit.uncheckedPrototypes.isEmpty {
            logger.info(
                "prototypes no checked row uses: their tags were not checked",
                metadata: ["prototypes": "\(audit.uncheckedPrototypes.joined(separator: ","))"])
        }
        logger.info(
            "lists checked",
            metadata: [
                "lists": "\(checked)",
                "checked": "the first and last page of each list, as HTML and JSON; other rows are checked when they are asked for",
            ])
    }

    /// The controller for a list's first page, as a request without a query makes it.
    private func firstPageController(of route: ListRoute) throws -> any TableController {
        do {
            let context = ListContext(request: Request(path: route.path), listPath: route.path, page: PageRequest(firstOf: route.paging))
            return try route.makeController(context)
        } catch {
            throw StartupError.listDoesNotRender(path: route.path, reason: String(describing: error))
        }
    }

    /// The targets that ``validate()`` renders for a list of `total` rows: its first page, and its
    /// last when it has more than one.
    private func checkedPages(of route: ListRoute, total: Int) -> [String] {
        // An unpaged list is checked 50 rows at a time at each end, as its whole can be a million rows.
        let first = route.paging == .unpaged ? "\(route.path)?limit=50" : route.path
        let size = PageRequest(firstOf: route.paging).limit ?? 50
        guard total > size else { return [first] }
        return [first, "\(route.path)?offset=\(total - size)&limit=\(size)"]
    }

    /// Shows the page's rows to `audit` (which prototype tags their data answers).
    private func checkRows(of route: ListRoute, request: Request, audit: PrototypeTagAudit) throws {
        let pageRequest = try PageRequest(query: request.query, paging: route.paging)
        let controller = try route.makeController(ListContext(request: request, listPath: route.path, page: pageRequest))
        let page = Page(pageRequest, total: controller.totalNumberOfRows)
        for row in page.window {
            guard let indexPath = controller.indexPath(atFlatIndex: row) else { continue }
            audit.record(controller.cellProvider(forRowAt: indexPath))
        }
    }
}
