extension TableList {
    /// Why this table takes no writes even with the database served writable, or nil when it
    /// takes them: a view; a table with no key to name a row by; a virtual table; `writable:
    /// false` in the configuration; or a full-text index over it that no trigger keeps in step,
    /// which writes would leave answering with rows as they were.
    func readOnlyReason(settings: DatabaseConfiguration.Table?, in database: Database) -> String? {
        if schema.kind == .view { return "\(schema.name) is a view: a view’s rows cannot be written." }
        if settings?.writable == false { return "\(schema.name) is read-only: the configuration says writable: false." }
        if schema.isVirtual { return "\(schema.name) is a virtual table: Cellar does not write to it." }
        if !hasKey, database.dialect == .postgres {
            return "\(schema.name) has no primary key to name its rows by, so they cannot be written one at a time."
        }
        if !hasKey { return "\(schema.name) has no key to name its rows by, so they cannot be written one at a time." }
        if let index = schema.searchIndex, database.writer != nil {
            let kept = try? database.read { reader in
                try reader.integer(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ? AND instr(sql, ?) > 0",
                    [.text(schema.name), .text(index.table)])
            }
            if kept ?? 0 == 0 {
                return
                    "\(schema.name) is read-only: its full-text index \(index.table) has no trigger on \(schema.name) that keeps it in step, so a write would leave searches finding rows as they were. Add the triggers FTS5’s documentation gives for an external-content table."
            }
        }
        return nil
    }
}
