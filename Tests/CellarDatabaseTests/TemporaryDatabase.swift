import CellarDatabase
import Foundation

/// A database file built from SQL text in a fresh temporary directory, removed when the value goes away.
final class TemporaryDatabase {
    let directory: URL
    let path: String

    /// Runs `sql` on a new file `name` in a new directory, through a read-write connection that is closed before returning.
    init(_ sql: String, name: String = "test.sqlite") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cellar-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(name).path
        try Self.build(path, sql)
    }

    /// Builds a database file at `path` from `sql`.
    static func build(_ path: String, _ sql: String) throws {
        let writer = try SQLiteConnection(path: path, readOnly: false)
        try writer.execute(sql)
    }

    /// A path in the directory, for more files.
    func file(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// A read-write connection to the file.
    func writer() throws -> SQLiteConnection {
        try SQLiteConnection(path: path, readOnly: false)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}

extension SQLiteConnection {
    /// Every row of `sql` with `values` bound.
    func rows(_ sql: String, _ values: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
        let statement = try statement(sql)
        try statement.bind(values)
        return try statement.allRows()
    }

    /// The first column of the first row of `sql`.
    func scalar(_ sql: String, _ values: [DatabaseValue] = []) throws -> DatabaseValue? {
        try rows(sql, values).first?.first
    }
}
