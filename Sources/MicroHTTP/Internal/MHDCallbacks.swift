import ByteWriters
import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C callbacks handed to libmicrohttpd.
///
/// They are non-capturing closures stored in `static let`s of a nonisolated enum, never in
/// `main.swift` or a `@MainActor` type: there Swift 6 would insert a main-actor check that
/// crashes on the first request from an MHD worker thread (`_dispatch_assert_queue_fail`).
enum MHDCallbacks {
    typealias URILogCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer?

    /// Called first for each request, with the undecoded target: creates its ``RequestContext``.
    ///
    /// The query is then hidden from libmicrohttpd (ended right after its `?`, in libmicrohttpd's
    /// own read buffer, which it rewrites in place itself): the server parses the query from its
    /// copy of the target, and libmicrohttpd 0.9.75 would keep a record of every item in the
    /// connection's memory. About 500 items (2 KB of `a=1&`) filled it, and the request then
    /// stalled until a timeout with no answer (the C peer on the same library does the same).
    static let logURI: URILogCallback = { cls, uri, _ in
        guard let cls else { return nil }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        core.inFlightRequests.add(1, ordering: .relaxed)
        let context = RequestContext(rawTarget: uri.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? [])
        if let uri, context.pathEnd + 1 < context.rawTarget.count {
            UnsafeMutablePointer(mutating: uri)[context.pathEnd + 1] = 0
        }
        return Unmanaged.passRetained(context).toOpaque()
    }

    static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, conCls in
        guard let cls, let connection, let url, let method, let uploadDataSize, let conCls else { return .NO }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        let context: RequestContext
        if let existing = conCls.pointee {
            context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
        } else {
            // Only if the URI-log callback did not run; keep the request anyway.
            core.inFlightRequests.add(1, ordering: .relaxed)
            context = RequestContext(rawTarget: Array(String(cString: url).utf8))
            conCls.pointee = Unmanaged.passRetained(context).toOpaque()
        }
        return core.handle(
            connection: connection, context: context, method: method, url: url, version: version, uploadData: uploadData,
            uploadDataSize: uploadDataSize)
    }

    /// The end of a request (sent, aborted or timed out): logs it and releases its context.
    static let requestCompleted: MHD_RequestCompletedCallback = { cls, _, conCls, termination in
        guard let cls, let conCls, let raw = conCls.pointee else { return }
        conCls.pointee = nil
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        core.finish(context, termination: termination)
    }

    /// A connection starts or ends; the head watchdog watches its socket in between.
    ///
    /// libmicrohttpd 0.9.75 calls this with `CLOSED` before it closes the socket, on every path: the
    /// watchdog relies on that (see ``HeadWatchdog``).
    static let connectionNotification: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        if code == .CONNECTION_NOTIFY_STARTED {
            core.openConnections.add(1, ordering: .relaxed)
            if let watchdog = core.headWatchdog, let connection, let socketContext {
                let socket = cmhd_connection_fd(connection)
                if socket >= 0 { socketContext.pointee = watchdog.register(socket: socket) }
            }
            core.observer?.connectionOpened()
        } else {
            if let watchdog = core.headWatchdog, let socketContext, let watch = socketContext.pointee {
                socketContext.pointee = nil
                watchdog.unregister(watch)
            }
            core.openConnections.subtract(1, ordering: .relaxed)
            core.observer?.connectionClosed()
        }
    }

    static let readStream: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        read(StreamBox.self, cls, buffer, capacity)
    }

    /// libmicrohttpd is done with a streamed response: release the box, and with it the producer.
    static let releaseStream: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<StreamBox>.fromOpaque(cls).release()
    }

    /// An event stream's content reader: queued events, or a suspension until the next one (see ``EventStream``).
    static let readEvents: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        read(EventStreamConnection.self, cls, buffer, capacity)
    }

    /// A content reader's callback: the `Reader` the response holds (unretained: the response
    /// owns it until its free callback) fills libmicrohttpd's buffer.
    private static func read<Reader: ContentReader>(
        _: Reader.Type, _ cls: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int
    ) -> Int {
        guard let cls, let buffer else { return cmhd_content_reader_end_with_error() }
        let reader = Unmanaged<Reader>.fromOpaque(cls).takeUnretainedValue()
        return reader.read(into: UnsafeMutableRawPointer(buffer), capacity: capacity).readerReturnValue
    }

    /// libmicrohttpd is done with an event stream's response: the stream is over.
    static let releaseEvents: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        let box = Unmanaged<EventStreamConnection>.fromOpaque(cls).takeRetainedValue()
        box.ended()
    }

    /// libmicrohttpd is done with a buffered response: release the storage it sent from.
    static let releaseStorage: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<ByteStorage>.fromOpaque(cls).release()
    }

    /// libmicrohttpd's error log, formatted by the shim.
    static let logDaemonMessage: cmhd_log_function = { cls, message in
        guard let cls, let message else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        var text = String(cString: message)
        while text.last?.isNewline == true { text.removeLast() }
        core.recordDaemonMessage(text)
    }

    static let collectHeader: MHD_KeyValueIterator = { cls, _, key, value in
        guard let cls, let key else { return .YES }
        let headers = cls.assumingMemoryBound(to: HTTPHeaders.self)
        headers.pointee.appendReceived(name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
        return .YES
    }
}
