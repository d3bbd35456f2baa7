import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The headers that go on every response unless it sets them itself, as C strings made once with
/// the server's core, and what a response's field names are checked against.
final class DefaultHeaders: Sendable {
    /// What a response's field names turned out to be: bit `i` is set when the response sets the
    /// `i`th default header itself (the 65th and later are looked up by name instead).
    struct Overridden {
        var bits: UInt64 = 0
        var connection = false
    }

    enum Kind {
        /// `Content-Length` or `Transfer-Encoding`: libmicrohttpd writes framing itself.
        case framing
        case other
    }

    private let headers: [CHeader]
    /// The longest default header name: a longer field name is none of them.
    private let longestName: Int

    init(_ fields: HTTPHeaders) {
        var headers: [CHeader] = []
        for (name, value) in fields { headers.append(CHeader(name: name, value: value)) }
        self.headers = headers
        longestName = headers.map(\.nameLength).max() ?? 0
    }

    /// Whether `name` is a framing header, noting in `overridden` the defaults it replaces.
    func classify(_ name: borrowing String, into overridden: inout Overridden) -> Kind {
        if let kind = name.utf8.withContiguousStorageIfAvailable({ classify($0, into: &overridden) }) { return kind }
        return Array(name.utf8).withUnsafeBufferPointer { classify($0, into: &overridden) }
    }

    private func classify(_ name: UnsafeBufferPointer<UInt8>, into overridden: inout Overridden) -> Kind {
        var kind = Kind.other
        switch name.count {
        case 10 where HTTPHeaders.namesEqual(name, Self.connection): overridden.connection = true
        case 14 where HTTPHeaders.namesEqual(name, Self.contentLength), 17 where HTTPHeaders.namesEqual(name, Self.transferEncoding):
            kind = .framing
        default: break
        }
        guard name.count <= longestName else { return kind }
        headers.withUnsafeBufferPointer { headers in
            for index in 0..<min(headers.count, 64) where headers[index].nameLength == name.count && headers[index].hasName(name) {
                overridden.bits |= 1 << UInt64(index)
            }
        }
        return kind
    }

    /// Adds every default header that `overridden` (or, past the 64th, `response`) does not set.
    func add(to handle: OpaquePointer, except overridden: Overridden, response: HTTPHeaders) {
        headers.withUnsafeBufferPointer { headers in
            for index in headers.indices {
                let header = headers[index]
                let isOverridden = index < 64 ? overridden.bits & (1 << UInt64(index)) != 0 : response.contains(header.name)
                if !isOverridden { _ = MHD_add_response_header(handle, header.cName, header.cValue) }
            }
        }
    }

    private static let connection = Array("Connection".utf8)
    private static let contentLength = Array("Content-Length".utf8)
    private static let transferEncoding = Array("Transfer-Encoding".utf8)
}

/// A header field as C strings, for headers that go on every response: made once with the
/// server's core and freed with it.
final class CHeader: Sendable {
    let name: String
    let nameLength: Int
    nonisolated(unsafe) let cName: UnsafeMutablePointer<CChar>
    nonisolated(unsafe) let cValue: UnsafeMutablePointer<CChar>

    init(name: String, value: String) {
        self.name = name
        nameLength = name.utf8.count
        cName = strdup(name)
        cValue = strdup(value)
    }

    /// Whether `name` is this header's name, ignoring ASCII case.
    func hasName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        cName.withMemoryRebound(to: UInt8.self, capacity: nameLength) {
            HTTPHeaders.namesEqual(UnsafeBufferPointer(start: $0, count: nameLength), name)
        }
    }

    deinit {
        free(cName)
        free(cValue)
    }
}
