import Logging
import MicroHTTP
import TableKit

/// What a list's page, JSON and live window do with a row whose cell cannot be made (see
/// ``RowErrorHandling``): the row alone shows an error naming the request, the rest answers 200,
/// and the error is logged with the list and the row and counted in `/metrics`
/// (`cellar_row_errors_total`). In development (``App/showsErrorDetails``) the row shows the error.
///
/// One per response, made only for serving: ``App/validate()`` renders without one, so a cell
/// that fails on a list's first or last page still stops the start. It holds little (the app's
/// part is one shared ``Log``): it is made for every list response, and nearly always unused.
final class RowErrorReporter: RowErrorHandling {
    /// What every response's reporter shares: made once with the app's snapshot.
    final class Log: Sendable {
        let logger: Logger
        let metrics: CellarMetrics
        let showsErrorDetails: Bool

        init(logger: Logger, metrics: CellarMetrics, showsErrorDetails: Bool) {
            self.logger = logger
            self.metrics = metrics
            self.showsErrorDetails = showsErrorDetails
        }
    }

    let requestID: String
    /// The rows reported so far: a response with any is not kept by caches.
    private(set) var failures = 0
    private let listPath: String
    private let controller: any TableController
    private let log: Log

    init(request: Request, route: ListRoute, controller: any TableController, log: Log) {
        requestID = request.id
        listPath = route.path
        self.controller = controller
        self.log = log
    }

    func messageForFailedRow(at indexPath: IndexPath, error: any Error) -> String {
        failures += 1
        let identifier = controller.identifier(forRowAt: indexPath)
        log.logger.error(
            "row failed",
            metadata: [
                "request_id": "\(requestID)", "list": "\(listPath)", "row": "\(identifier)",
                "index_path": "\(indexPath.section).\(indexPath.row)", "error": "\(String(describing: error))",
                "error_type": "\(String(reflecting: type(of: error)))",
            ])
        log.metrics.countRowError()
        var message = "This row could not be shown (request \(requestID))."
        if log.showsErrorDetails { message += " \(String(reflecting: type(of: error))): \(String(describing: error))" }
        return message
    }
}
