import ByteWriters

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves the regular files under a root directory, with validators and conditional requests.
///
/// Answers carry `Content-Type` (by extension, see ``MIMEType``), a strong `ETag` built from the
/// file's size and modification time, `Last-Modified` and `Cache-Control`. `If-None-Match`
/// (or, without it, `If-Modified-Since`) that still matches gets 304 without a body.
///
/// A bad path never gets a 5xx nor a byte from outside the root: ``resolve(_:)`` refuses it
/// before the file system is touched, and the resolved file must still be inside the root once
/// symbolic links are followed (`realpath`). Directories are not listed (404).
///
/// Files up to ``inMemoryLimit`` are kept in memory once read, up to `memoryLimit` bytes in all,
/// and served from there without touching the disk. After `revalidationInterval` a file's entry is
/// checked again with one `stat` of its path: a file that was edited, replaced, removed or turned
/// into a link is read again through the checks above (or gets 404), so an edit shows within that
/// interval.
///
/// Fallbacks are files held in the program itself, served at their path when the root has
/// nothing there (or does not exist at all), so an app's defaults work without a copy of them on
/// disk and a file of the same name in the root replaces them. A path is checked by
/// ``resolve(_:)`` before a fallback is considered, and a path the root does hold but refuses (a
/// link out of it, a directory) gets 404, never the fallback. A fallback's `ETag` is a hash of
/// its bytes; it has no `Last-Modified`.
public struct StaticFiles: Sendable {
    /// `Cache-Control` used unless another is given.
    public static let defaultCacheControl = "public, max-age=3600"
    /// Relative paths longer than this (in UTF-8 bytes) get 414.
    public static let maxPathLength = 1024
    /// Files up to this size are read into memory and sent with `Content-Length`; larger ones are streamed.
    public static let inMemoryLimit = 1 << 20

    /// The directory served, as given.
    public let root: String
    /// The `Cache-Control` value sent with every file.
    public let cacheControl: String
    /// How long a file kept in memory is served before its path is checked on disk again.
    public let revalidationInterval: Duration
    /// `memoryLimit` unless another is given: the showcase's `Public/` is about 50 KB.
    public static let defaultMemoryLimit = 8 << 20
    private let memory: FileMemory
    private let fallbacks: [String: MemoryFile]

    /// Creates a file server for `root` (relative paths are relative to the working directory),
    /// keeping up to `memoryLimit` bytes of files in memory (0: none, every request reads the disk).
    ///
    /// `fallbacks` are the bytes of files served when the root has nothing at their path, keyed
    /// by that path (`"app.css"`, `"img/logo.svg"`: each must be one ``resolve(_:)`` accepts);
    /// their `Content-Type` follows the extension, as for files.
    public init(
        root: String, cacheControl: String = StaticFiles.defaultCacheControl, revalidationInterval: Duration = .seconds(1),
        memoryLimit: Int = StaticFiles.defaultMemoryLimit, fallbacks: [String: [UInt8]] = [:]
    ) {
        self.root = root
        self.cacheControl = cacheControl
        self.revalidationInterval = revalidationInterval
        memory = FileMemory(limit: max(memoryLimit, 0))
        var files: [String: MemoryFile] = [:]
        for (path, bytes) in fallbacks {
            // Fallback paths are the app's own constants, set at start-up, never a request's: one
            // that no request could name is a programming error, stopped here before serving
            // (as the router stops on a malformed pattern) rather than silently never served.
            precondition((try? Self.resolve(path).joined(separator: "/")) == path, "The fallback path '\(path)' is not one a request can name.")
            files[path] = MemoryFile(
                bytes: ByteStorage(copying: bytes), identity: nil, etag: Self.etag(hashing: bytes), lastModified: nil, modified: nil,
                contentType: MIMEType.forPath(path), checked: ContinuousClock.now)
        }
        self.fallbacks = files
    }

    /// Bytes of files held in memory now.
    public var bytesInMemory: Int { memory.bytes }

    /// Checks a path relative to the root (what follows `/static/`) and returns its segments.
    ///
    /// Refused with 404: an empty path or segment (`a//b`, a leading or trailing `/`), `.` and `..`,
    /// any segment starting with `.` (hidden files), NUL, control characters, backslashes, and a
    /// percent-escape that survived libmicrohttpd's single decoding (`%2e`, `%2f`, `%5c`, `%25`…:
    /// a double-encoded path is an attack, never a file name here). Longer than ``maxPathLength``: 414.
    public static func resolve(_ path: String) throws(HTTPError) -> [String] {
        let bytes = Array(path.utf8)
        guard bytes.count <= maxPathLength else { throw HTTPError.uriTooLong() }
        guard !bytes.isEmpty else { throw HTTPError.notFound() }
        for (index, byte) in bytes.enumerated() {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") { throw HTTPError.notFound() }
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                throw HTTPError.notFound()
            }
        }
        // Split and test bytes, not Characters: "/" followed by a combining mark (or a prepend
        // character followed by "/") is one Character, and ".\u{301}" does not have the prefix ".".
        let segments = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for segment in segments where segment.first == nil || segment.first == UInt8(ascii: ".") {
            throw HTTPError.notFound()
        }
        return segments.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The response for `relativePath` (as matched after the prefix), honouring the conditional headers of `request`.
    public func response(for relativePath: String, request: Request) throws(HTTPError) -> Response {
        // Only paths that passed `resolve` are kept, under exactly their text (it refuses empty
        // segments, so its segments joined again are the path): a path found needs no new check.
        if let file = memory.file(
            relativePath, checkedSince: ContinuousClock.now - revalidationInterval, identity: { identity(of: relativePath) })
        {
            return response(for: file, request: request)
        }
        let segments = try Self.resolve(relativePath)
        assert(segments.joined(separator: "/") == relativePath, "a resolved path is its segments joined")
        guard let base = Self.realPath(root) else {
            guard Self.namesNothing(root) else { throw HTTPError.notFound() }
            return try fallback(relativePath, request: request)
        }
        let path = base + "/" + relativePath
        guard let file = Self.realPath(path) else {
            guard Self.namesNothing(path) else { throw HTTPError.notFound() }
            return try fallback(relativePath, request: request)
        }
        guard file.hasPrefix(base == "/" ? "/" : base + "/") else { throw HTTPError.notFound() }

        let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw HTTPError.notFound() }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw HTTPError.notFound()
        }
        let size = Int(status.st_size)
        let modified = Int(status.st_mtim.tv_sec)
        let etag = "\"\(String(size, radix: 16))-\(String(modified, radix: 16))\(String(status.st_mtim.tv_nsec, radix: 16))\""
        let lastModified = HTTPDate.format(secondsSince1970: modified)
        if Self.isNotModified(request: request, etag: etag, modified: modified) {
            close(descriptor)
            return Response(status: .notModified, headers: headers(etag: etag, lastModified: lastModified))
        }
        let contentType = MIMEType.forPath(file)
        let headers = headers(etag: etag, lastModified: lastModified, contentType: contentType)
        if size > Self.inMemoryLimit {
            return Response(status: .ok, headers: headers, body: .stream(FileProducer(descriptor: descriptor)))
        }
        defer { close(descriptor) }
        guard let read = Self.readAll(descriptor, size: size) else { throw HTTPError.notFound() }
        let bytes = ByteStorage(copying: read)
        memory.keep(
            MemoryFile(
                bytes: bytes, identity: FileIdentity(status), etag: etag, lastModified: lastModified, modified: modified,
                contentType: contentType, checked: ContinuousClock.now),
            for: relativePath)
        return Response(status: .ok, headers: headers, body: .storage(bytes))
    }

    /// The fallback for a path the root has nothing at, kept in memory like a file read from
    /// disk (so the next request needs no `realpath`, and a file put there later is noticed when
    /// the entry is checked again); 404 when there is none.
    private func fallback(_ relativePath: String, request: Request) throws(HTTPError) -> Response {
        guard var file = fallbacks[relativePath] else { throw HTTPError.notFound() }
        file.checked = ContinuousClock.now
        memory.keep(file, for: relativePath)
        return response(for: file, request: request)
    }

    /// The answer from a file kept in memory: the same headers and conditional handling as from disk.
    private func response(for file: MemoryFile, request: Request) -> Response {
        if Self.isNotModified(request: request, etag: file.etag, modified: file.modified) {
            return Response(status: .notModified, headers: headers(etag: file.etag, lastModified: file.lastModified))
        }
        return Response(
            status: .ok, headers: headers(etag: file.etag, lastModified: file.lastModified, contentType: file.contentType),
            body: .storage(file.bytes))
    }

    /// A file's validators and `Cache-Control` (all a 304 carries), then its `Content-Type`.
    private func headers(etag: String, lastModified: String?, contentType: String? = nil) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(4)
        headers.add(name: "ETag", value: etag)
        if let lastModified { headers.add(name: "Last-Modified", value: lastModified) }
        headers.add(name: "Cache-Control", value: cacheControl)
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        return headers
    }

    /// What the path under the root names now (links followed; a link that leads nowhere is
    /// itself), or nil when it names nothing.
    private func identity(of key: String) -> FileIdentity? {
        var status = stat()
        let path = root + "/" + key
        guard stat(path, &status) == 0 || lstat(path, &status) == 0 else { return nil }
        return FileIdentity(status)
    }

    /// Whether nothing at all is at `path`: not a file, a folder nor a link, even a broken one.
    private static func namesNothing(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) != 0 && errno == ENOENT
    }

    /// A strong validator for bytes held in the program: FNV-1a over them, 16 hex digits.
    static func etag(hashing bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return EntityTag.quoted(hash)
    }

    private static func isNotModified(request: Request, etag: String, modified: Int?) -> Bool {
        if let ifNoneMatch = request.headers["If-None-Match"] { return EntityTag.ifNoneMatch(ifNoneMatch, names: etag) }
        if let modified, let since = request.headers["If-Modified-Since"].flatMap(HTTPDate.parse) {
            return modified <= since
        }
        return false
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func readAll(_ descriptor: Int32, size: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, size - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }
}

/// Which file a path named when it was read: device, inode, size and modification time. An
/// edit, a replacement or a removal changes it, and so does a link at the path to another file.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        seconds = Int(status.st_mtim.tv_sec)
        nanoseconds = Int(status.st_mtim.tv_nsec)
    }
}

/// A file read into memory, or a fallback, with what its responses need.
struct MemoryFile {
    /// Sent from where they are by every response for the file, without a copy.
    let bytes: ByteStorage
    /// Which file it was read from; nil for a fallback, served while the path names nothing.
    let identity: FileIdentity?
    let etag: String
    /// Nil for a fallback, which has no modification time.
    let lastModified: String?
    let modified: Int?
    let contentType: String
    /// When its identity on disk was last found unchanged.
    var checked: ContinuousClock.Instant
}

/// The files a ``StaticFiles`` keeps in memory, by relative path, within a byte limit; shared by
/// every worker thread.
final class FileMemory: Sendable {
    private struct State {
        var files: [String: MemoryFile] = [:]
        var bytes = 0
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) { self.limit = limit }

    var bytes: Int { state.withLock { $0.bytes } }

    /// The file kept for `key` if it was checked after `since`, or if `identity()` (called
    /// without the lock held) still names the same file (for a fallback: still nil, nothing);
    /// nil otherwise, and a file that changed is forgotten.
    func file(_ key: String, checkedSince since: ContinuousClock.Instant, identity: () -> FileIdentity?) -> MemoryFile? {
        guard limit > 0 else { return nil }
        guard let kept = state.withLock({ $0.files[key] }) else { return nil }
        if kept.checked > since { return kept }
        let now = ContinuousClock.now
        let current = identity()
        return state.withLock { state in
            guard var file = state.files[key], file.identity == kept.identity else { return nil }
            guard current == file.identity else {
                state.files[key] = nil
                state.bytes -= file.bytes.count
                return nil
            }
            file.checked = now
            state.files[key] = file
            return file
        }
    }

    /// Keeps `file` for `key` if it fits within the limit with the others.
    func keep(_ file: MemoryFile, for key: String) {
        guard limit > 0 else { return }
        state.withLock { state in
            let replaced = state.files[key]?.bytes.count ?? 0
            guard state.bytes - replaced + file.bytes.count <= limit else { return }
            state.files[key] = file
            state.bytes += file.bytes.count - replaced
        }
    }
}

/// Streams a large file in chunks; closes the descriptor when released.
final class FileProducer: ResponseBodyProducer {
    private let descriptor: Int32
    private let chunkSize = 64 * 1024

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    func produce(into buffer: inout [UInt8]) throws -> Bool {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + start, chunkSize) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                buffer.removeLast(chunkSize)
                throw FileReadError(errno: errno)
            }
            buffer.removeLast(chunkSize - count)
            return count > 0
        }
    }

    struct FileReadError: Error, CustomStringConvertible {
        let errno: Int32
        var description: String { "reading a static file failed: \(String(cString: strerror(errno)))" }
    }
}
