import Logging
import MicroHTTP
import TableKit

/// What a list's page, JSON and live window do with a row whose cell cannot be made (see
/// ``RowErrorHandling``): the row alone shows an error naming the request, the rest answers 200,
/// and the error is logged with the list and the row and counted in `/metrics`
/// (`cellar_row_errors_total`). In development (``App/showsErrorDetails``) the row shows the error.
///
/// One per response, made only for serving: ``App/validate()`` renders without one, so a cell
/// that fails on a list's first or last page still stops the start.
final class RowErrorReporter: RowErrorHandling {
    let requestID: String
    private let route: ListRoute
    private let controller: any TableController
    private let app: App.Snapshot

    init(request: Request, route: ListRoute, controller: any TableController, app: App.Snapshot) {
        requestID = request.id
        self.route = route
        self.controller = controller
        self.app = app
    }

    func messageForFailedRow(at indexPath: IndexPath, error: any Error) -> String {
        let identifier = controller.identifier(forRowAt: indexPath)
        app.logger.error(
            "row failed",
            metadata: [
                "request_id": "\(requestID)", "list": "\(route.path)", "row": "\(identifier)",
                "index_path": "\(indexPath.section).\(indexPath.row)", "error": "\(String(describing: error))",
                "error_type": "\(String(reflecting: type(of: error)))",
            ])
        app.metrics.countRowError()
        var message = "This row could not be shown (request \(requestID))."
        if app.showsErrorDetails { message += " \(String(reflecting: type(of: error))): \(String(describing: error))" }
        return message
    }
}
