import Cellar
import MicroHTTP
import TableKit

/// A list whose rows reference another table's through a foreign key of one column: on a row's
/// detail page, "12 rows in stocks reference this symbol", linked to that list filtered to them.
struct IncomingReference: Sendable {
    /// The referring list.
    let list: TableList
    /// Its column that refers.
    let column: Int
    /// The referenced table's column it refers to.
    let referencedColumn: Int

    /// Counts are kept exact up to here; past it, "more than 10,000".
    static let countLimit = 10_000

    /// The count's SQL: the referring rows, up to one past ``countLimit``.
    var countSQL: String {
        let expression = list.quotedName + "." + quotedIdentifier(list.columns[column].name)
        return "SELECT count(*) FROM (SELECT 1 FROM \(list.quotedName) WHERE \(expression) = ? LIMIT ?) AS counted"
    }

    /// The referring list filtered to the rows whose column holds `value` (`/stocks?symbol=AAPL`).
    func link(value: String) -> String {
        let name = list.columns[column].name
        var query = QueryItems()
        // A column named like a reserved parameter (`limit`) is filtered by its `__exact` form.
        query.append(name: ListContext.reservedNames.contains(name) ? name + "__exact" : name, value: value)
        return ListRoute.percentEncodedPath(list.path) + "?" + query.percentEncoded
    }

    /// "12 rows in stocks reference this symbol"; "through origin" when the list refers to the
    /// table through more than one column.
    func text(count: RowCount, referenced: TableList, severalColumns: Bool) -> String {
        let rows =
            !count.isExact
            ? "More than \(Self.countLimit.formatted()) rows in \(list.title) reference"
            : count.rows == 1 ? "1 row in \(list.title) references" : "\(count.rows.formatted()) rows in \(list.title) reference"
        let name = referenced.columns[referencedColumn].name
        let what = name.lowercased() == "id" || referenced.schema.keyIsRowID ? "row" : referenced.labels[referencedColumn]
        let through = severalColumns ? " through \(list.labels[column])" : ""
        return "\(rows) this \(what)\(through)"
    }
}
