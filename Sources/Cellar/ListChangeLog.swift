/// A store that numbers its own changes — a change-log table every writer appends to — so that a
/// list's event ids mean the same on every process serving it, and a client that reconnects to
/// another replica needs no refresh unless its list changed.
///
/// Given to ``ListWatchers/numberChanges(ofListsAt:with:)``: the lists' windows and batches are
/// then numbered by the log's positions rather than by the process's own sequence. A position
/// must never be ahead of what a render that starts after reading it shows: a smaller one only
/// costs a client a refresh it did not need.
public protocol ListChangeLog: Sendable {
    /// The log's position now, never less than a position returned before: every change up to it
    /// is visible to a read that starts after this call.
    func currentPosition() -> UInt64

    /// Whether the data behind the list at `path` may have changed since a render at `position`;
    /// true when the log cannot tell (it no longer reaches back that far, or cannot be read).
    func hasChanged(listAt path: String, since position: UInt64) -> Bool
}
