/// What a ``TableWalk`` writes a table into: the HTML rows (``HTMLTableSink``, which
/// ``TableRenderer`` walks into), the JSON twin, or a sink that wraps one of them (a live list's,
/// which keeps each row's bytes). The walk asks the controller, in order, for each section's header and
/// footer and for each row's identifier and cell provider, and hands them here; the sink writes
/// them and says how many bytes it holds, so that the walk can pause at a limit.
///
/// A sink that cannot be copied (one that owns an ``HTMLWriter``) is fine: the walk only borrows it.
public protocol TableWalkSink: ~Copyable {
    /// The bytes written so far: the walk pauses once they reach its limit.
    var byteCount: Int { get }

    /// Opens a section, before its first row in the window (or alone, for an empty section).
    mutating func openSection(_ section: TableWalk.Section)

    /// Writes one row: `provider` is the one the controller chose for it, which names the row's
    /// cell and configures it. Throwing stops the walk with the error.
    mutating func writeRow(at indexPath: IndexPath, identifier: consuming String, provider: DataCellProvider) throws

    /// Closes the section opened last, after its last row in the window.
    mutating func closeSection(_ section: TableWalk.Section)
}
