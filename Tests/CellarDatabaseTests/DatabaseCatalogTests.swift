import Foundation
import MicroHTTP
import Testing

@testable import CellarDatabase

/// What following a migration stands on: the schema's version moves with a change of the schema
/// and not with a write of rows, in both journal modes; a statement written for the schema before
/// a change is a 503 that says to reload, not a 500; and how a label column is judged.
struct DatabaseCatalogTests {
    @Test(arguments: ["DELETE", "WAL"])
    func theSchemasVersionMovesWithTheSchemaAlone(journal: String) throws {
        let file = try TemporaryDatabase(SchemaFixture.sql)
        let writer = try file.writer()
        try writer.execute("PRAGMA journal_mode = \(journal)")
        let database = try Database(path: file.path)
        let first = try database.currentVersions()
        try writer.execute("INSERT INTO ticks(symbol, size) VALUES ('S1', 1)")
        let afterWrite = try database.currentVersions()
        #expect(afterWrite.schema == first.schema)
        #expect(afterWrite.data != first.data)
        try writer.execute("ALTER TABLE ticks ADD COLUMN venue TEXT")
        let afterMigration = try database.currentVersions()
        #expect(afterMigration.schema != first.schema)
        #expect(try database.readSchema().table(named: "ticks")?.columns.last?.name == "venue")
    }

    @Test func aStatementOfTheSchemaBeforeAChangeIsA503ThatSaysToReload() throws {
        let file = try TemporaryDatabase(SchemaFixture.sql)
        let database = try Database(path: file.path)
        let sql = "SELECT close FROM stocks WHERE id = ?"
        var rows = FetchedRows(columnCount: 1)
        try database.read { connection in try connection.appendRows(of: sql, [.integer(1)], to: &rows) }
        #expect(rows.count == 1)
        try file.writer().execute("ALTER TABLE stocks RENAME COLUMN close TO last_price")
        do {
            try database.read { connection in try connection.appendRows(of: sql, [.integer(1)], to: &rows) }
            Issue.record("the statement of the old schema was read")
        } catch let error as HTTPError {
            #expect(error.status == .serviceUnavailable)
            #expect(error.message.contains("schema changed"), "\(error.message)")
        }
    }

    @Test(arguments: [
        ("2000-01-01", true), ("2000-01-01T09:30:00Z", true), ("12/31/1999", true), ("1,234.5", true), ("-7", true), ("42%", true),
        ("1e10", true), ("Apple Inc.", false), ("", false), ("Route 66", false), ("Q3 2024", false), ("7", true),
    ])
    func dateAndNumberShapes(text: String, shaped: Bool) {
        #expect(LabelColumn.isDateOrNumberShaped(text) == shaped, "\(text)")
    }

    @Test func aLabelNeedsNinetyPercentDistinctValuesAndNamesNotNumbers() throws {
        func rows(_ values: [String?]) -> FetchedRows {
            var rows = FetchedRows(columnCount: 1)
            for value in values { rows.append(value.map(DatabaseValue.text) ?? .null) }
            return rows
        }
        let ninety = (0..<90).map { "Name \($0)" } + Array(repeating: "Name 0", count: 10)
        let eightyNine = (0..<89).map { "Name \($0)" } + Array(repeating: "Name 0", count: 11)
        #expect(LabelColumn.namesRows(rows(ninety), column: 0))
        #expect(!LabelColumn.namesRows(rows(eightyNine), column: 0))
        #expect(!LabelColumn.namesRows(rows((0..<100).map { "2001-01-\($0)" }), column: 0))
        #expect(!LabelColumn.namesRows(rows((0..<100).map { $0 < 5 ? "Name \($0)" : nil }), column: 0))
        let schema = TableSchema(
            name: "t", kind: .table,
            columns: [
                ColumnSchema(name: "id", declaredType: "INTEGER", primaryKeyPosition: 1), ColumnSchema(name: "listed", declaredType: "TEXT"),
                ColumnSchema(name: "product_name", declaredType: "TEXT"), ColumnSchema(name: "Title", declaredType: "TEXT"),
                ColumnSchema(name: "name", declaredType: "INTEGER"),
            ])
        #expect(LabelColumn.candidates(of: schema) == [3, 2])
    }
}
