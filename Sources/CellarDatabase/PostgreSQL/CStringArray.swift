#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Strings copied into C memory for one libpq call (its keyword and value arrays, a query's
/// parameters), freed when this goes: `nil` stays a NULL pointer (SQL NULL for a parameter).
final class CStringArray {
    /// The copies, and a final NULL when asked for (libpq's keyword arrays end with one).
    let pointers: [UnsafePointer<CChar>?]

    init(_ strings: [String?], nullTerminated: Bool = false) {
        var pointers: [UnsafePointer<CChar>?] = strings.map { string in
            string.map { text in
                // As any Swift allocation does when memory runs out.
                guard let copy = strdup(text) else { fatalError("out of memory copying a string for libpq") }
                return UnsafePointer(copy)
            }
        }
        if nullTerminated { pointers.append(nil) }
        self.pointers = pointers
    }

    deinit {
        for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) }
    }
}
