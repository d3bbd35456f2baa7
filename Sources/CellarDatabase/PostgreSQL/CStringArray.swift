/// Strings copied into C memory for one libpq call (its keyword and value arrays, a query's
/// parameters), freed when this goes: `nil` stays a NULL pointer (SQL NULL for a parameter).
final class CStringArray {
    /// The copies, and a final NULL when asked for (libpq's keyword arrays end with one).
    let pointers: [UnsafePointer<CChar>?]

    init(_ strings: [String?], nullTerminated: Bool = false) {
        var pointers: [UnsafePointer<CChar>?] = strings.map { string in
            string.map { text in
                let characters = text.utf8CString
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: characters.count)
                characters.withUnsafeBufferPointer { copy.initialize(from: $0.baseAddress!, count: characters.count) }
                return UnsafePointer(copy)
            }
        }
        if nullTerminated { pointers.append(nil) }
        self.pointers = pointers
    }

    deinit {
        for pointer in pointers { pointer.map { UnsafeMutablePointer(mutating: $0).deallocate() } }
    }
}
