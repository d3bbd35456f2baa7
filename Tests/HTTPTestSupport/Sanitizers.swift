#if canImport(Glibc)
    import Glibc
#endif

/// What the test process runs under. AddressSanitizer keeps freed memory in quarantine and
/// shadows every byte, so resident-memory bounds say nothing there; tests of bounded memory
/// check them only without it (the plain `swift test` run of `make test` does).
public enum Sanitizers {
    /// Whether AddressSanitizer's runtime is loaded in this process.
    public static let isAddressSanitizerActive: Bool = {
        #if canImport(Glibc)
            return dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
        #else
            return false
        #endif
    }()
}
