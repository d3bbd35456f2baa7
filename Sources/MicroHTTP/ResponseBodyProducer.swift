/// Produces a response body part by part, for bodies too large to hold in memory at once.
///
/// The server calls ``produce(into:)`` on the worker thread that serves the request, whenever
/// libmicrohttpd needs more bytes to send, and never from two threads at once. Memory stays
/// bounded by what one call appends, whatever the size of the whole body.
///
/// The producer is released when libmicrohttpd is done with the response, whether the body was
/// sent whole or the client went away: its `deinit` is the place to return pooled resources.
public protocol ResponseBodyProducer: AnyObject {
    /// Appends the next part of the body to `buffer`, roughly one chunk (a few to a few hundred KiB).
    ///
    /// - Returns: false when nothing more follows what was appended in this call.
    /// - Throws: any error; the headers have already been sent, so the server logs it and closes the
    ///   connection, and the client sees a truncated chunked body.
    func produce(into buffer: inout [UInt8]) throws -> Bool
}
