import Cellar

/// A searchable table's list: the page shows a search form.
final class SearchableDatabaseListController: DatabaseListController, SearchableController {
    var searchTerm: String { context.searchTerm ?? "" }
    var searchPrompt: String { "Search \(list.title)" }
}
