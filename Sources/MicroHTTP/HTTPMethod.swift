/// An HTTP request method, such as `GET` or `POST`.
///
/// Methods are compared by their exact (upper-case) spelling, as HTTP requires.
/// Any token is representable, so an unusual method reaches the ``Router``, which answers it with 405.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The method as it appears on the request line.
    public let rawValue: String

    /// Creates a method from its spelling on the request line.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from a string literal, e.g. `"PROPFIND"`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let head = HTTPMethod(rawValue: "HEAD")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let options = HTTPMethod(rawValue: "OPTIONS")
}
