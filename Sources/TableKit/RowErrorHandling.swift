/// What a table view does with a row whose cell cannot be made: nothing is registered under its
/// identifier, or its cell throws while it is configured or rendered.
///
/// Without one (a table view's ``TableView/rowErrorHandler`` is nil by default) the error stops
/// the render, as it stops a page's check at start-up. With one, that row alone is written as an
/// error cell showing the text the handler returns, and the table goes on:
///
/// ```html
/// <li class="cell cell-error" id="row-7"><p class="cell-error-message">This row could not be shown.</p></li>
/// ```
///
/// A server's handler logs the error and says which request it was, so the message can be
/// followed into the log.
public protocol RowErrorHandling: AnyObject {
    /// Called once for the row at `indexPath`, whose cell failed with `error`; returns the text
    /// its error cell shows (escaped when written).
    func messageForFailedRow(at indexPath: IndexPath, error: any Error) -> String
}
