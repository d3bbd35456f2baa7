/// What a form's POST may hold before it is read: larger or longer is refused before any field is
/// checked, with a message naming what is over.
public struct FormLimits: Sendable {
    /// The largest body read, in bytes (413 above it). The server's own limit,
    /// `ServerConfiguration.maxBodySize` (1 MiB by default), is checked first, as the body arrives.
    public var maxBodySize: Int
    /// The most name–value pairs (or JSON members) a body may carry (400 above it). Each field's
    /// length is bounded by its ``FormField/maxLength`` (400 naming the field).
    public var maxFieldCount: Int

    public init(maxBodySize: Int = 64 * 1024, maxFieldCount: Int = 100) {
        self.maxBodySize = maxBodySize
        self.maxFieldCount = maxFieldCount
    }
}
