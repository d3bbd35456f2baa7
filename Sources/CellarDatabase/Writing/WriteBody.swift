import ByteWriters

/// A JSON write API body, read member by member from the request's bytes by a ``JSONReader``
/// (``WriteRequest/decode(_:)``). A member the body does not take is a 400 that names it, as
/// Datasette's is: a client that sends `"alter"` learns that Cellar does not alter tables,
/// rather than having it dropped in silence. The members a body needs are judged first, so that
/// a row's columns sent without their wrapper (`{"title": …}`) are told what is missing.
protocol WriteBody {
    init(reading json: inout JSONReader) throws
}

/// An insert's or upsert's body: `{"row": {…}}` or `{"rows": [{…}, …]}`, and the options.
struct InsertBody: WriteBody {
    var row: JSONInputRow?
    var rows: [JSONInputRow]?
    var `return`: Bool?
    var ignore: Bool?
    var replace: Bool?

    init(reading json: inout JSONReader) throws {
        var unknown: String?
        try json.readBody { json, name in
            switch name {
            case "row": row = try json.readOptional { json in try json.readRow(at: name) }
            case "rows":
                rows = try json.readOptional { json in
                    guard try json.peek() == .array else { throw WriteBodyError.wrongKind(at: name) }
                    var rows: [JSONInputRow] = []
                    try json.readArray { json, index in rows.append(try json.readRow(at: "rows.\(index)")) }
                    return rows
                }
            case "return": `return` = try json.readOptionalBool(name)
            case "ignore": ignore = try json.readOptionalBool(name)
            case "replace": replace = try json.readOptionalBool(name)
            default:
                unknown = unknown ?? name
                try json.skipValue()
            }
        }
        // Without "row" or "rows", ``WriteRequest/rows(single:many:)`` says so.
        if let unknown, row != nil || rows != nil {
            throw WriteBodyError.unknownMember(unknown, takes: "“row” or “rows”, “return”, “ignore” and “replace”")
        }
    }
}

/// An update's body: `{"update": {…}}`, and `"return"`.
struct UpdateBody: WriteBody {
    var update: JSONInputRow
    var `return`: Bool?

    init(reading json: inout JSONReader) throws {
        var update: JSONInputRow?
        var returnsRow: Bool?
        var unknown: String?
        try json.readBody { json, name in
            switch name {
            case "update": update = try json.readOptional { json in try json.readRow(at: name) }
            case "return": returnsRow = try json.readOptionalBool(name)
            default:
                unknown = unknown ?? name
                try json.skipValue()
            }
        }
        guard let update else { throw RowWriteError.badRequest("The body has no “update”.") }
        if let unknown { throw WriteBodyError.unknownMember(unknown, takes: "“update” and “return”") }
        self.update = update
        self.return = returnsRow
    }
}

/// The refusals of a body's members, each a 400 the API lists.
enum WriteBodyError {
    static func unknownMember(_ name: String, takes: String) -> RowWriteError {
        RowWriteError.badRequest("The body has “\(name.prefix(80))”, which this API does not take: it takes \(takes).")
    }

    static func wrongKind(at path: String) -> RowWriteError {
        RowWriteError.badRequest("The body’s “\(path.prefix(200))” is not of the kind expected.")
    }
}

extension JSONReader {
    /// Reads the body's object, `member` reading each member by name; anything else is a 400.
    fileprivate mutating func readBody(_ member: (inout JSONReader, String) throws -> Void) throws {
        guard try peek() == .object else {
            throw RowWriteError.badRequest("The body is not a JSON object: send one, such as {\"row\": {…}}.")
        }
        try readObject(member)
    }

    /// A member's value read by `read`, or nil for `null` (as if the member were not there).
    fileprivate mutating func readOptional<T>(_ read: (inout JSONReader) throws -> T) throws -> T? {
        if try readNullIfPresent() { return nil }
        return try read(&self)
    }

    /// `true` or `false`, or nil for `null`; a 400 naming the member for another kind.
    fileprivate mutating func readOptionalBool(_ path: String) throws -> Bool? {
        if try readNullIfPresent() { return nil }
        guard try peek() == .bool else { throw WriteBodyError.wrongKind(at: path) }
        return try readBool()
    }

    /// A row's object of column names and values; each value read by ``JSONInputValue``.
    fileprivate mutating func readRow(at path: String) throws -> JSONInputRow {
        guard try peek() == .object else { throw WriteBodyError.wrongKind(at: path) }
        var row: JSONInputRow = []
        try readObject { json, name in
            do {
                row.append((name, try JSONInputValue(reading: &json)))
            } catch let failure as JSONReader.Failure where failure.reason == .numberOutOfRange {
                throw RowWriteError.badRequest(
                    "“\(name.prefix(80))” has a number too large for any column (past a double’s range), at byte \(failure.offset).", column: name)
            }
        }
        return row
    }
}
