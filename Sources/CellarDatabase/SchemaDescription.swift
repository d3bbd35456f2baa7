import Cellar
import TableKit

/// A table's schema as its pages show it — each column's declared type, NOT NULL, default, place in
/// the key and the foreign key it is part of, then the table's indexes — in the table page's
/// disclosure, at `/{table}/-/schema`, and as JSON at `/{table}/-/schema.json`.
enum SchemaDescription {
    /// The columns' table and the indexes' list, as the disclosure and the schema's page share them.
    ///
    /// A foreign key to a table in `hidden` (one its reader may not view) is left out.
    static func writeTables(of list: TableList, lists: [String: TableList], hiding hidden: Set<String> = [], into html: inout HTMLWriter) {
        let schema = list.schema
        html.raw("<div class=\"schema-columns\"><table class=\"schema-table\"><caption>Columns of ")
        html.text(schema.name)
        html.raw("</caption>\n<thead><tr><th scope=\"col\">Column</th><th scope=\"col\">Type</th><th scope=\"col\">NOT NULL</th>")
        html.raw("<th scope=\"col\">Default</th><th scope=\"col\">Key</th><th scope=\"col\">References</th></tr></thead>\n<tbody>")
        for (index, column) in schema.columns.enumerated() {
            html.raw("<tr><th scope=\"row\"><code>")
            html.text(column.name)
            html.raw("</code></th><td>")
            html.text(column.declaredType.isEmpty ? "(none)" : column.declaredType)
            if column.isGenerated { html.raw(", generated") }
            // Its existence is schema; its values are never shown (YAML `secret:`).
            if list.isSecret(index) { html.raw(", secret") }
            html.raw("</td><td>")
            html.raw(column.notNull ? "yes" : "")
            html.raw("</td><td>")
            if let value = column.defaultValue {
                html.raw("<code>")
                html.text(value)
                html.raw("</code>")
            }
            html.raw("</td><td>")
            html.text(keyDescription(of: column, in: schema))
            html.raw("</td><td>")
            for (index, key) in schema.foreignKeys.filter({ $0.columns.contains(column.name) && !hidden.contains($0.referencedTable) }).enumerated() {
                if index > 0 { html.raw(", ") }
                writeReference(key, column: column.name, lists: lists, into: &html)
            }
            html.raw("</td></tr>\n")
        }
        html.raw("</tbody></table></div>\n")
        guard schema.kind == .table else { return }
        html.raw("<p class=\"schema-indexes\">")
        if schema.indexes.isEmpty {
            html.raw("No index.</p>\n")
            return
        }
        html.raw("Indexes:</p>\n<ul class=\"schema-indexes\">")
        for index in schema.indexes {
            html.raw("<li><code>")
            html.text(index.name)
            html.raw("</code> (")
            html.text(index.columns.joined(separator: ", "))
            html.raw(")")
            let traits = indexTraits(index)
            if !traits.isEmpty {
                html.raw(" ")
                html.text(traits)
            }
            html.raw("</li>")
        }
        html.raw("</ul>\n")
    }

    /// The table page's disclosure: closed until opened.
    static func writeDisclosure(of list: TableList, in lists: [String: TableList], hiding hidden: Set<String> = [], into html: inout HTMLWriter) {
        html.raw("<details class=\"schema\"><summary>Schema: ")
        html.text(list.columns.count == 1 ? "1 column" : "\(list.columns.count) columns")
        html.raw("</summary>\n")
        writeTables(of: list, lists: lists, hiding: hidden, into: &html)
        html.raw("<p><a")
        html.attribute("href", ListRoute.percentEncodedPath(list.path) + "/-/schema")
        html.raw(">The schema on its own page</a> · <a")
        html.attribute("href", ListRoute.percentEncodedPath(list.path) + "/-/schema.json")
        html.raw(">JSON</a></p></details>\n")
    }

    /// `/{table}/-/schema`'s content.
    static func writePage(of list: TableList, lists: DatabaseLists, into html: inout HTMLWriter) {
        html.raw("<p>")
        html.text(list.schema.kind == .view ? "A view" : "A table")
        html.raw(" · <a")
        html.attribute("href", ListRoute.percentEncodedPath(list.path))
        html.raw(">Its rows</a> · <a")
        html.attribute("href", ListRoute.percentEncodedPath(list.path) + "/-/schema.json")
        html.raw(">JSON</a></p>\n")
        writeTables(of: list, lists: lists.byName, hiding: lists.hidden, into: &html)
    }

    /// `{"table", "kind", "columns": [{name, type, notNull, default, primaryKey, generated, secret}],
    /// "primaryKey", "foreignKeys": [{columns, table, referencedColumns, href}], "indexes": [{name,
    /// columns, unique, origin, partial}], "links"}`.
    static func json(of list: TableList, lists: DatabaseLists) -> [UInt8] {
        let schema = list.schema
        var json = JSONWriter()
        json.raw("{")
        json.key("table")
        json.string(schema.name)
        json.member("kind", schema.kind == .view ? "view" : "table")
        json.member("columns")
        json.raw("[")
        for (index, column) in schema.columns.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{")
            json.key("name")
            json.string(column.name)
            json.member("type", column.declaredType)
            json.member("notNull", column.notNull)
            json.member("default", column.defaultValue)
            json.member("primaryKey", column.primaryKeyPosition > 0 ? column.primaryKeyPosition : nil)
            json.member("generated", column.isGenerated)
            json.member("secret", list.isSecret(index))
            json.raw("}")
        }
        json.raw("]")
        json.member("primaryKey")
        writeStrings(schema.primaryKey, into: &json)
        json.member("foreignKeys")
        json.raw("[")
        for (index, key) in schema.foreignKeys.filter({ !lists.hidden.contains($0.referencedTable) }).enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{")
            json.key("columns")
            writeStrings(key.columns, into: &json)
            json.member("table", key.referencedTable)
            json.member("referencedColumns")
            writeStrings(key.referencedColumns, into: &json)
            json.member("href", lists.byName[key.referencedTable].map { ListRoute.percentEncodedPath($0.path) })
            json.raw("}")
        }
        json.raw("]")
        json.member("indexes")
        json.raw("[")
        for (index, entry) in schema.indexes.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{")
            json.key("name")
            json.string(entry.name)
            json.member("columns")
            writeStrings(entry.columns, into: &json)
            json.member("unique", entry.isUnique)
            json.member("origin", entry.origin.rawValue)
            json.member("partial", entry.isPartial)
            json.raw("}")
        }
        json.raw("]")
        json.member("links")
        json.raw("{")
        json.key("list")
        json.string(ListRoute.percentEncodedPath(list.path))
        json.member("self", ListRoute.percentEncodedPath(list.path) + "/-/schema.json")
        json.raw("}}\n")
        return json.takeBytes()
    }

    private static func writeStrings(_ values: [String], into json: inout JSONWriter) {
        json.raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(value)
        }
        json.raw("]")
    }

    /// "primary key", "primary key (2 of 2)", or nothing.
    private static func keyDescription(of column: ColumnSchema, in schema: TableSchema) -> String {
        guard column.primaryKeyPosition > 0 else { return "" }
        return schema.primaryKey.count > 1 ? "primary key (\(column.primaryKeyPosition) of \(schema.primaryKey.count))" : "primary key"
    }

    /// "unique, partial", "primary key", "unique constraint".
    private static func indexTraits(_ index: IndexSchema) -> String {
        var traits: [String] = []
        switch index.origin {
        case .primaryKey: traits.append("primary key")
        case .unique: traits.append("unique constraint")
        case .created: if index.isUnique { traits.append("unique") }
        }
        if index.isPartial { traits.append("partial") }
        return traits.joined(separator: ", ")
    }

    /// `producers.id`, linked to the producers' list when it is mounted.
    private static func writeReference(_ key: ForeignKey, column: String, lists: [String: TableList], into html: inout HTMLWriter) {
        let position = key.columns.firstIndex(of: column) ?? 0
        let referenced = position < key.referencedColumns.count ? key.referencedColumns[position] : "?"
        let text = key.referencedTable + "." + referenced
        guard let target = lists[key.referencedTable] else {
            html.text(text)
            return
        }
        html.raw("<a")
        html.attribute("href", ListRoute.percentEncodedPath(target.path))
        html.raw(">")
        html.text(text)
        html.raw("</a>")
    }
}
