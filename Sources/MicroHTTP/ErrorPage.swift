/// The default rendering of an ``HTTPError``: a small HTML page, or JSON when the client prefers it.
///
/// HTML: `<!doctype html>`, the title "404 Not Found", the escaped message and the request id.
/// JSON: `{"error":{"status":404,"message":"…","requestID":"…"}}`.
/// Replace it with ``ServerConfiguration/errorRenderer`` to render styled pages.
public enum ErrorPage {
    /// Renders `error` for `request`.
    @Sendable public static func render(_ error: HTTPError, for request: Request) -> Response {
        if request.prefersJSON {
            let json =
                "{\"error\":{\"status\":\(error.status.code),\"message\":\(jsonString(error.message)),"
                + "\"requestID\":\(jsonString(request.id))}}"
            return .json(json, status: error.status)
        }
        let title = escapeHTML(error.status.description)
        let html = """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>\(title)</title></head>
            <body>
            <h1>\(title)</h1>
            <p>\(escapeHTML(error.message))</p>
            <p><small>Request ID: <code>\(escapeHTML(request.id))</code></small></p>
            </body>
            </html>

            """
        return .html(html, status: error.status)
    }

    /// Escapes `& < > " '` for HTML text and attribute values.
    public static func escapeHTML(_ text: String) -> String {
        guard text.utf8.contains(where: { "&<>\"'".utf8.contains($0) }) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): result.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): result.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): result.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): result.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): result.append(contentsOf: "&#39;".utf8)
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A JSON string literal (with quotes) for `text`.
    public static func jsonString(_ text: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var result: [UInt8] = [UInt8(ascii: "\"")]
        result.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): result.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): result.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): result.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): result.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): result.append(contentsOf: "\\t".utf8)
            case UInt8(ascii: "<"): result.append(contentsOf: "\\u003c".utf8)
            case 0..<0x20:
                result.append(contentsOf: "\\u00".utf8)
                result.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: result.append(byte)
            }
        }
        result.append(UInt8(ascii: "\""))
        return String(decoding: result, as: UTF8.self)
    }
}
