// libFuzzer target: StaticFiles.resolve(_:) (Sources/MicroHTTP/StaticFiles.swift), the check
// every /static/ path goes through before the file system is touched.
//
// Properties, for any string (libMicroHTTPD hands over a percent-decoded path):
// - resolve never traps and fails only with 404, or 414 exactly when the path is over
//   StaticFiles.maxPathLength UTF-8 bytes — never a 5xx;
// - it accepts exactly the paths an independent byte-level reading of its documented rules
//   accepts: non-empty; no NUL, control, DEL or backslash; no `%XX` left; every `/`-separated
//   segment non-empty and not starting with a `.` byte (so no `.`, `..` or hidden file);
// - the segments it returns join back to the path, none contains a `/` byte, and walking them
//   from the root never leaves it.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStaticPath(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    checkStaticPath(String(decoding: bytes, as: UTF8.self))
    return 0
}

func checkStaticPath(_ path: String) {
    let bytes = Array(path.utf8)
    let reference = referenceStaticPath(bytes)
    do {
        let segments = try StaticFiles.resolve(path)
        require(reference, "resolve accepted \(show(path)) (\(segments.map(show))), which the rules refuse")
        require(segments.joined(separator: "/") == path, "segments of \(show(path)) do not join back")
        var depth = 0
        for segment in segments {
            let utf8 = Array(segment.utf8)
            require(!utf8.isEmpty && utf8[0] != UInt8(ascii: "."), "segment \(show(segment)) of \(show(path))")
            require(!utf8.contains(UInt8(ascii: "/")), "segment \(show(segment)) of \(show(path)) holds a slash")
            depth += 1
        }
        require(depth == segments.count && depth >= 1, "depth")
    } catch {
        if bytes.count > StaticFiles.maxPathLength {
            require(error.status.code == 414, "\(error.status) for a \(bytes.count)-byte path")
        } else {
            require(error.status.code == 404, "\(error.status) for \(show(path))")
            require(!reference, "resolve refused \(show(path)), which the rules accept")
        }
    }
}

/// The documented rules, on bytes.
func referenceStaticPath(_ bytes: [UInt8]) -> Bool {
    guard !bytes.isEmpty, bytes.count <= 1024 else { return false }
    for (i, byte) in bytes.enumerated() {
        if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") { return false }
        if byte == UInt8(ascii: "%") && i + 2 < bytes.count && isHexDigit(bytes[i + 1]) && isHexDigit(bytes[i + 2]) { return false }
    }
    var segment: [UInt8] = []
    for byte in bytes + [UInt8(ascii: "/")] {
        if byte == UInt8(ascii: "/") {
            if segment.isEmpty || segment[0] == UInt8(ascii: ".") { return false }
            segment = []
        } else {
            segment.append(byte)
        }
    }
    return true
}
