/// What a content reader gives libmicrohttpd: bytes written into its buffer, the end of the
/// body, or an error that ends the response (``StreamBox`` for a streamed body,
/// ``EventStream`` for events).
enum ContentReadResult {
    case bytes(Int)
    case endOfStream
    case error
}
