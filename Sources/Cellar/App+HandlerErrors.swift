import MicroHTTP

extension App.Snapshot {
    /// Runs an app's handler for a page or a form at `path`: an ``HTTPError`` passes through to
    /// the error page; any other error becomes a 500 that says only that the server failed, logged
    /// with the request id (and, in development, shown).
    func guardingHandler<Result>(of request: Request, at path: String, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as HTTPError {
            throw error
        } catch {
            logger.error(
                "page failed",
                metadata: [
                    "request_id": "\(request.id)", "page": "\(path)", "error": "\(String(describing: error))",
                    "error_type": "\(String(reflecting: type(of: error)))",
                ])
            var message = "The server failed to answer this request."
            if showsErrorDetails { message += " \(String(reflecting: type(of: error))): \(String(describing: error))" }
            throw HTTPError(.internalServerError, message)
        }
    }
}
