import ByteWriters
import CMicroHTTPD
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The one source file over 400 lines, on purpose: it is a request's whole life inside
// libmicrohttpd (head, body, answer, queueing each kind of body, completion), and each step
// hands the next the same connection and context; split, a reader would jump between files to
// follow one request.

/// What the C callbacks reach through their `void *` context: everything a request needs, immutable or atomic.
///
/// Retained (`Unmanaged.passRetained`) for the daemon's lifetime and released by ``Server``
/// after `MHD_stop_daemon` has returned.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let responder: any HTTPResponder
    let logger: Logger
    let observer: (any ServerObserver)?
    let accessLog: (any AccessLogWriter)?
    let renderError: ServerConfiguration.ErrorRenderer
    /// Requests between their request line and their completion.
    let inFlightRequests = Atomic<Int>(0)
    /// Open connections.
    let openConnections = Atomic<Int>(0)
    /// Set when the server stops: responses then carry `Connection: close`.
    let draining = Atomic<Bool>(false)
    /// ``ServerConfiguration/defaultHeaders`` as C strings, made once: they go on every response.
    let defaultHeaders: DefaultHeaders
    /// The last message libmicrohttpd logged (used to explain a failed start).
    let lastDaemonMessage = Locked<String?>(nil)
    /// The request-head deadline; nil when ``ServerConfiguration/headerTimeout`` is 0.
    let headWatchdog: HeadWatchdog?
    /// The open event streams: caps, heartbeats, and their end when the server stops.
    let eventStreams: EventStreamRegistry

    init(
        configuration: ServerConfiguration, responder: any HTTPResponder, logger: Logger, observer: (any ServerObserver)?,
        accessLog: (any AccessLogWriter)? = nil
    ) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        self.observer = observer
        self.accessLog = accessLog
        defaultHeaders = DefaultHeaders(configuration.defaultHeaders)
        self.renderError = configuration.errorRenderer ?? ErrorPage.render
        self.headWatchdog = configuration.headerTimeout > 0 ? HeadWatchdog(timeout: .seconds(configuration.headerTimeout)) : nil
        eventStreams = EventStreamRegistry(
            limit: configuration.eventStreamLimit, perAddressLimit: configuration.eventStreamsPerAddress,
            heartbeatInterval: .seconds(configuration.eventStreamHeartbeat))
    }

    /// One access-handler call: headers, then body chunks, then the end of the body, when the response is queued.
    func handle(
        connection: OpaquePointer, context: RequestContext, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        switch context.phase {
        case .started:
            // Answering before libmicrohttpd has read the body makes it close the connection after
            // the response instead of keeping it alive: wait for the next call.
            context.phase = .receivingBody
            // The head is complete: the connection no longer waits for one (one store; see HeadWatchdog).
            if headWatchdog != nil, let watch = cmhd_connection_socket_context(connection) {
                ConnectionWatch.headCompleted(watch)
                context.watch = watch
            }
            context.method = HTTPMethod(rawValue: String(cString: method))
            // The path comes from the raw target (see RequestContext.decodePath): libmicrohttpd's `url` is cut at `%00`.
            if context.rawTarget.isEmpty { context.path = String(cString: url) }
            var head = cmhd_head_check()
            cmhd_check_head(connection, &head)
            let headBytes = Self.headBytes(head, method: method, url: url, rawTarget: context.rawTarget, version: version)
            if headBytes > configuration.largestRequestHead {
                let message = "The request head is \(headBytes) bytes; this server accepts at most \(configuration.largestRequestHead).\n"
                return answerHeadTooLarge(connection: connection, context: context, message: message)
            }
            context.headerFieldCount = Int(head.field_count)
            let fieldLimit = ServerConfiguration.largestFieldCount
            if head.field_count > fieldLimit {
                let message = "The request has \(head.field_count) header fields; this server accepts at most \(fieldLimit).\n"
                return answerHeadTooLarge(connection: connection, context: context, message: message)
            }
            if let problem = Self.headProblem(head, version: version) {
                // The framing or the target is ambiguous: answer now, and close (RFC 9112 §6.3).
                return answer(connection: connection, context: context, error: HTTPError(.badRequest, problem, headers: ["Connection": "close"]))
            }
            let length = head.content_length.flatMap { value in
                Int(String(decoding: UnsafeRawBufferPointer(start: value, count: head.content_length_size), as: UTF8.self))
            }
            if let length, length > configuration.maxBodySize {
                context.bodyTooLarge = true
                // With `Expect: 100-continue` the body has not been sent yet: refuse it before it is.
                let expects = Self.headerValue(connection, "Expect")?.lowercased() == "100-continue"
                if expects && (context.method == .post || context.method == .put) {
                    return answer(connection: connection, context: context, error: .payloadTooLarge())
                }
            }
            return .YES
        case .receivingBody:
            let size = uploadDataSize.pointee
            if size > 0 {
                if !context.bodyTooLarge, let uploadData {
                    if context.body.count + size > configuration.maxBodySize {
                        context.bodyTooLarge = true
                        context.body = []
                    } else {
                        uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                            context.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
                        }
                    }
                }
                uploadDataSize.pointee = 0
                return .YES
            }
            if context.bodyTooLarge {
                return answer(connection: connection, context: context, error: .payloadTooLarge())
            }
            return answer(connection: connection, context: context)
        case .answered:
            return .YES
        }
    }

    /// Builds the request, asks the responder, and queues its response.
    private func answer(connection: OpaquePointer, context: RequestContext) -> MHD_Result {
        // Every field is known before the request is made.
        var rawPath: String?
        if !context.rawTarget.isEmpty {
            // A path with no escape decodes to itself: the decoded string is the raw one, made once.
            rawPath = context.pathHasEscapes ? String(decoding: context.rawTarget[..<context.pathEnd], as: UTF8.self) : context.path
        }
        var rawQuery: String?
        var query = QueryItems()
        var queryError: HTTPError?
        if let raw = context.rawQuery {
            rawQuery = String(decoding: raw, as: UTF8.self)
            do {
                query = try QueryItems(parsing: raw)
            } catch {
                queryError = error
            }
        }
        let request = Request(
            method: context.method, path: context.path, rawPath: rawPath, rawQuery: rawQuery, query: query,
            headers: Self.headers(connection, count: context.headerFieldCount),
            body: context.body, id: context.id, remoteAddress: cmhd_connection_client_address(connection).flatMap(SocketAddress.describe))
        context.body = []
        if let queryError {
            return queue(connection: connection, context: context, response: errorResponse(queryError, for: request), for: request)
        }
        let response: Response
        var route: String?
        do {
            response = try responder.respond(to: request, matchedRoute: &route)
        } catch let error as HTTPError {
            response = errorResponse(error, for: request)
        } catch {
            logger.error(
                "Handler failed", metadata: ["request_id": "\(request.id)", "path": "\(request.path)", "error": "\(String(describing: error))"])
            response = errorResponse(.internalServerError("An internal error occurred (request \(request.id))."), for: request)
        }
        context.route = route
        return queue(connection: connection, context: context, response: response, for: request)
    }

    /// The request head's size as sent: request line, header fields, and the empty line.
    static func headBytes(
        _ head: cmhd_head_check, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>, rawTarget: [UInt8], version: UnsafePointer<CChar>?
    ) -> Int {
        let target = rawTarget.isEmpty ? strlen(url) : rawTarget.count
        return strlen(method) + 1 + target + 1 + (version.map { strlen($0) } ?? 0) + 2 + head.field_bytes + 2
    }

    /// Answers a head over ``ServerConfiguration/largestRequestHead`` or with more than
    /// ``ServerConfiguration/largestFieldCount`` fields with 431 and closes: a short plain-text
    /// answer with two header fields, so that it fits in what the head left of the connection's
    /// memory (the error page and the default headers might not).
    private func answerHeadTooLarge(connection: OpaquePointer, context: RequestContext, message: String) -> MHD_Result {
        context.phase = .answered
        let handle = message.withCString { MHD_create_response_from_buffer(strlen($0), UnsafeMutableRawPointer(mutating: $0), .RESPMEM_MUST_COPY) }
        guard let handle else {
            logger.error("Could not create a response", metadata: ["request_id": "\(context.id)"])
            return .NO
        }
        defer { MHD_destroy_response(handle) }
        // Only what the client needs (the request id is in the access line): with ~450 short fields
        // libmicrohttpd's records of them leave room for little more than its own Date and length.
        _ = MHD_add_response_header(handle, "Content-Type", "text/plain; charset=utf-8")
        _ = MHD_add_response_header(handle, "Connection", "close")
        context.status = .requestHeaderFieldsTooLarge
        return MHD_queue_response(connection, UInt32(HTTPStatus.requestHeaderFieldsTooLarge.code), handle)
    }

    /// Answers with an error before the body was read (the request is built from what is known).
    private func answer(connection: OpaquePointer, context: RequestContext, error: HTTPError) -> MHD_Result {
        let request = Request(
            method: context.method, path: context.path, query: QueryItems(), headers: Self.headers(connection, count: context.headerFieldCount),
            body: [], id: context.id, remoteAddress: nil)
        return queue(connection: connection, context: context, response: errorResponse(error, for: request), for: request)
    }

    private func errorResponse(_ error: HTTPError, for request: Request) -> Response {
        var response = renderError(error, request)
        for (name, value) in error.headers { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }

    /// Hands `response` to libmicrohttpd with the default headers and `X-Request-ID` added (taken,
    /// not copied: it is changed here only when it cannot be sent as it is).
    private func queue(connection: OpaquePointer, context: RequestContext, response: consuming Response, for request: Request) -> MHD_Result {
        context.phase = .answered
        if !(100...599).contains(response.status.code) {
            logger.error("Handler returned an invalid status", metadata: ["request_id": "\(request.id)", "status": "\(response.status.code)"])
            response = errorResponse(.internalServerError("An internal error occurred (request \(request.id))."), for: request)
        }
        let bodyAllowed = request.method != .head && response.status != .notModified && response.status != .noContent
        switch response.body {
        case .stream where !bodyAllowed:
            // libmicrohttpd 0.9.75 still writes the chunked terminator after the head of a HEAD response,
            // which the client would read as the start of the next response: send no stream at all.
            response.body = .empty
        case .events(let stream) where !bodyAllowed:
            response.body = .empty
            stream.finish(refused: true)
        case .events(let stream):
            guard stream.attach(to: connection) else {
                // One stream returned for two requests: the first keeps it.
                logger.error("An event stream was returned for a second request", metadata: ["request_id": "\(request.id)"])
                return queue(
                    connection: connection, context: context,
                    response: errorResponse(.internalServerError("An internal error occurred (request \(request.id))."), for: request),
                    for: request)
            }
            if let refusal = admitEvents(stream, for: request) {
                stream.finish(refused: true)
                return queue(connection: connection, context: context, response: errorResponse(refusal, for: request), for: request)
            }
            if !response.headers.contains("Content-Type") { response.headers.add(name: "Content-Type", value: "text/event-stream") }
            if !response.headers.contains("Cache-Control") { response.headers.add(name: "Cache-Control", value: "no-cache") }
        default:
            break
        }
        let handle: OpaquePointer?
        var buffered: ByteStorage?
        switch response.body {
        case .empty, .bytes([]):
            handle = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            // An array lends its bytes only inside a closure: copied into memory of their own.
            buffered = ByteStorage(copying: bytes)
            handle = Self.makeResponse(sendingFrom: buffered!)
            context.bufferedBytes = bodyAllowed ? bytes.count : 0
        case .storage(let storage):
            buffered = storage
            handle = Self.makeResponse(sendingFrom: storage)
            context.bufferedBytes = bodyAllowed ? storage.count : 0
        case .stream(let producer):
            let counter = ByteCounter()
            context.streamedBytes = counter
            let box = StreamBox(
                producer: producer, counter: counter, logger: logger, requestID: request.id, chunkSize: configuration.streamChunkSize)
            handle = MHD_create_response_from_callback(
                cmhd_size_unknown(), configuration.streamChunkSize, MHDCallbacks.readStream, Unmanaged.passRetained(box).toOpaque(),
                MHDCallbacks.releaseStream)
        case .events(let stream):
            let counter = ByteCounter()
            context.streamedBytes = counter
            let box = Unmanaged.passRetained(
                EventStreamConnection(
                    stream: stream, registry: eventStreams, address: request.remoteAddress ?? "", counter: counter))
            // The block size is only advisory for a chunked body (libmicrohttpd writes the chunks into the
            // connection's own buffer) but is allocated with every response: keep it small.
            handle = MHD_create_response_from_callback(
                cmhd_size_unknown(), 1024, MHDCallbacks.readEvents, box.toOpaque(), MHDCallbacks.releaseEvents)
            if handle == nil {
                box.release()
                eventStreams.remove(stream, address: request.remoteAddress ?? "")
                stream.finish(refused: true)
            }
        }
        guard let handle else {
            logger.error("Could not create a response", metadata: ["request_id": "\(request.id)"])
            return .NO
        }
        defer { MHD_destroy_response(handle) }
        // One pass over the response's own fields, each lent where it is stored: it goes to
        // libmicrohttpd (but framing, which libmicrohttpd writes), and keeps off a default header
        // or `Connection: close` of the same name.
        var overridden = DefaultHeaders.Overridden()
        var fieldBytes = 0
        response.headers.forEachField { name, value in
            let kind = defaultHeaders.classify(name, into: &overridden)
            guard kind != .framing else { return }
            fieldBytes += name.utf8.count + value.utf8.count + 4
            // `withCString` lends a native string's own bytes; passing the String itself makes a copy of each.
            let added = name.withCString { name in value.withCString { value in MHD_add_response_header(handle, name, value) } }
            if added == .NO {
                logger.warning("Header refused by libmicrohttpd", metadata: ["request_id": "\(request.id)", "header": "\(copy name)"])
            }
        }
        if fieldBytes > configuration.largestResponseFields {
            // libmicrohttpd would close the connection without an answer: the response head must fit
            // in the connection's memory next to the request head (see largestRequestHead).
            logger.error(
                "Response head too large",
                metadata: ["request_id": "\(request.id)", "bytes": "\(fieldBytes)", "path": "\(request.path)"])
            context.streamedBytes = nil
            context.bufferedBytes = 0
            return queue(
                connection: connection, context: context,
                response: errorResponse(.internalServerError("The response could not be sent (request \(request.id))."), for: request),
                for: request)
        }
        defaultHeaders.add(to: handle, except: overridden, response: response.headers)
        _ = request.id.withCString { MHD_add_response_header(handle, "X-Request-ID", $0) }
        if draining.load(ordering: .relaxed) && !overridden.connection {
            _ = MHD_add_response_header(handle, "Connection", "close")
        }
        context.status = response.status
        let queued = MHD_queue_response(connection, UInt32(response.status.code), handle)
        if queued == .YES, let buffered, buffered.count > 0 {
            // Counted until the request is finished (its last byte sent, or its client gone).
            configuration.bufferedResponseBytes.add(buffered.count)
            context.countedBytes = buffered.count
        }
        return queued
    }

    /// A response libmicrohttpd sends from `storage`'s own memory, without a copy: the storage
    /// is retained until libmicrohttpd frees the response (``MHDCallbacks/releaseStorage``).
    private static func makeResponse(sendingFrom storage: ByteStorage) -> OpaquePointer? {
        guard let bytes = storage.baseAddress, storage.count > 0 else {
            return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        }
        let retained = Unmanaged.passRetained(storage)
        let handle = MHD_create_response_from_buffer_with_free_callback_cls(
            storage.count, UnsafeMutableRawPointer(mutating: bytes), MHDCallbacks.releaseStorage, retained.toOpaque())
        if handle == nil { retained.release() }
        return handle
    }

    /// Counts an event stream in, or the 503 that says which cap it is over.
    private func admitEvents(_ stream: EventStream, for request: Request) -> HTTPError? {
        let message: String
        do {
            try eventStreams.admit(stream, address: request.remoteAddress ?? "")
            return nil
        } catch {
            switch error {
            case .total(let limit):
                message = "This server has \(limit) live event streams open, its limit; try again shortly."
            case .perAddress(let limit):
                message =
                    "Your address has \(limit) live event streams open, the most this server allows one address; close one, or try again shortly."
            case .stopping:
                message = "The server is stopping."
            }
        }
        return HTTPError(.serviceUnavailable, message, headers: ["Retry-After": "\(ServerConfiguration.eventStreamRetryAfter)"])
    }

    /// Called once per request when libmicrohttpd is done with it: the access log line and the observer.
    func finish(_ context: RequestContext, termination: MHD_RequestTerminationCode) {
        inFlightRequests.subtract(1, ordering: .relaxed)
        if context.countedBytes > 0 { configuration.bufferedResponseBytes.remove(context.countedBytes) }
        // A keep-alive connection now waits for its next head.
        if let watch = context.watch { ConnectionWatch.requestFinished(watch) }
        let outcome: RequestSummary.Outcome
        switch termination {
        case .REQUEST_TERMINATED_COMPLETED_OK: outcome = .completed
        case .REQUEST_TERMINATED_CLIENT_ABORT, .REQUEST_TERMINATED_READ_ERROR: outcome = .clientDisconnected
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: outcome = .timedOut
        default: outcome = .failed
        }
        let summary = RequestSummary(
            method: context.method, path: context.path, route: context.route, status: context.status, bytesSent: context.bytesSent,
            duration: ContinuousClock.now - context.started, requestID: context.id, outcome: outcome)
        if logger.logLevel <= .info {
            if let accessLog { accessLog.write(summary) } else { logAccess(summary) }
        }
        observer?.requestCompleted(summary)
    }

    /// The access log line: one `info` event per request, with the summary's fields as metadata
    /// (``AccessLogWriter`` documents them; a configured writer replaces this).
    private func logAccess(_ summary: RequestSummary) {
        logger.info(Logger.Message(stringLiteral: summary.accessLogMessage), metadata: summary.accessLogMetadata)
    }

    /// Logs a message from libmicrohttpd's error log.
    func recordDaemonMessage(_ message: String) {
        lastDaemonMessage.withLock { $0 = message }
        // Mostly per-connection noise (resets, timeouts); a failed start is reported through ServerError as well.
        logger.notice("libmicrohttpd: \(message)")
    }

    /// Why RFC 9112 says to refuse this head with 400, or nil. libmicrohttpd 0.9.75 accepts all of these.
    ///
    /// Two *identical* Content-Length fields are accepted: RFC 9110 §8.6 lets a recipient treat them as
    /// one value, and they frame the body the same way whichever one a proxy picks.
    static func headProblem(_ head: cmhd_head_check, version: UnsafePointer<CChar>?) -> String? {
        if head.content_length_conflict { return "The request has two different Content-Length values." }
        // RFC 9112 §6.3: a server may refuse both together, and must not keep the connection
        // otherwise; they are how a request is smuggled past a proxy that reads the other one.
        if head.transfer_encoding_count > 0 && head.content_length_count > 0 {
            return "The request has both Transfer-Encoding and Content-Length."
        }
        if head.host_count > 1 { return "The request has more than one Host header field." }
        if head.invalid_field_name {
            return "A header field name is empty or holds a character that is not allowed there (e.g. a space before the colon)."
        }
        // HTTP/1.0 may omit Host; HTTP/1.1 (and any later 1.x that libmicrohttpd answers as 1.1) must send it.
        if head.host_count == 0, let version, strncmp(version, "HTTP/1.", 7) == 0, strcmp(version, "HTTP/1.0") != 0 {
            return "An HTTP/1.1 request must have a Host header field."
        }
        return nil
    }

    private static func headerValue(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// The request's `count` header fields, in a list made that long at once.
    private static func headers(_ connection: OpaquePointer, count: Int) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(count)
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(connection, .HEADER_KIND, MHDCallbacks.collectHeader, UnsafeMutableRawPointer(pointer))
        }
        return headers
    }
}
