import ByteWriters
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Generates request ids: 16 lower-case hex digits, a random per-process prefix then a counter.
///
/// The prefix tells apart the logs of two processes (or restarts); the counter orders the
/// requests of one process. Ids are unique within a process for 2³² requests.
enum RequestID {
    private static let prefix = UInt32.random(in: 0...UInt32.max)
    private static let counter = Atomic<UInt32>(0)

    /// The next id, e.g. `"9f3a01c200000017"`.
    static func next() -> String {
        let (value, _) = counter.wrappingAdd(1, ordering: .relaxed)
        // Sixteen digits written once into the string's own storage: one allocation per request.
        return String(unsafeUninitializedCapacity: 16) { bytes in
            HexDigits.write(UInt64(prefix), count: 8, into: bytes, at: 0)
            HexDigits.write(UInt64(value), count: 8, into: bytes, at: 8)
            return 16
        }
    }
}
