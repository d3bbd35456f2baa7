import CMicroHTTPD

/// What a content reader gives libmicrohttpd: bytes written into its buffer, the end of the
/// body, or an error that ends the response (``StreamBox`` for a streamed body,
/// ``EventStream`` for events).
enum ContentReadResult {
    case bytes(Int)
    case endOfStream
    case error

    /// The value a libmicrohttpd content reader returns for it.
    var readerReturnValue: Int {
        switch self {
        case .bytes(let count): count
        case .endOfStream: cmhd_content_reader_end_of_stream()
        case .error: cmhd_content_reader_end_with_error()
        }
    }
}

/// What a libmicrohttpd content reader reads from: a streamed body (``StreamBox``) or an event
/// stream (``EventStreamConnection``), held by the response as its callback's `cls`.
protocol ContentReader: AnyObject {
    /// Writes up to `capacity` bytes into `buffer`, or says the body has ended or failed.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> ContentReadResult
}
