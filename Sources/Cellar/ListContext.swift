import MicroHTTP
import TableKit

/// What a controller is made with: the request it answers and the list it belongs to.
public struct ListContext: Sendable {
    /// The request (query, headers, id).
    public let request: Request
    /// The path the list is mounted at (`/people`).
    public let listPath: String

    public init(request: Request, listPath: String) {
        self.request = request
        self.listPath = listPath
    }

    /// The request's query items.
    public var query: QueryItems { request.query }
}

/// A controller whose list can be searched: the page shows a search form for it.
public protocol SearchableController: TableController {
    /// The term searched for (`q` in the query), shown in the search field.
    var searchTerm: String { get }
    /// The label of the search field.
    var searchPrompt: String { get }
}
