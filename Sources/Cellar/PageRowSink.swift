import TableKit

/// A page's own sink — the HTML rows (``HTMLTableSink``) or the JSON twin's (``JSONTableSink``) —
/// whose bytes can be taken as they are written, one row at a time: what a live list keeps of
/// each row of a watched window (``WindowVersionSink``), byte for byte as the page has it.
protocol PageRowSink: TableWalkSink, ~Copyable {
    /// Hands over what was written since the last take (or discard), and has the next row written
    /// as its section's first: alone, without what separates it from the row before (JSON's comma).
    mutating func takeWritten() -> [UInt8]

    /// Drops what was written since the last take (a section's opening or closing), as ``takeWritten()`` would.
    mutating func discardWritten()
}

extension HTMLTableSink: PageRowSink {
    mutating func takeWritten() -> [UInt8] { html.takeBytes() }

    mutating func discardWritten() { html.removeAll() }
}
