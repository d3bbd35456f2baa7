import MicroHTTP

/// How a watcher of a list wants its patches: `<turbo-stream>` elements for a page, or JSON.
enum WatchFormat: String, Sendable {
    case turboStream
    case json

    /// The list format whose rows and links the patches carry: the page's, or the JSON's.
    var listFormat: ListFormat { self == .json ? .json : .page }

    /// The format a request to watch a list asks for, or nil when it does not ask to watch: an
    /// `Accept` that lists `text/event-stream` watches; the `.json` path (not another format's), or an `Accept` that also
    /// lists `application/json`, gets JSON patches.
    static func requested(by request: Request, path: ListFormat) -> WatchFormat? {
        // A path that names a format other than JSON (`.csv`) is not watched.
        guard path == .page || path == .json, let accept = request.headers["Accept"] else { return nil }
        var eventStream = false
        var json = path == .json
        for range in accept.split(separator: ",") {
            let mediaType = range.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces().lowercased() } ?? ""
            if mediaType == "text/event-stream" { eventStream = true }
            if mediaType == "application/json" { json = true }
        }
        guard eventStream else { return nil }
        return json ? .json : .turboStream
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
