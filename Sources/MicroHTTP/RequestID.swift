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
    private static let prefix: String = hex(UInt32.random(in: 0...UInt32.max))
    private static let counter = Atomic<UInt32>(0)

    /// The next id, e.g. `"9f3a01c200000017"`.
    static func next() -> String {
        let (value, _) = counter.wrappingAdd(1, ordering: .relaxed)
        return prefix + hex(value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: 8)
        for index in 0..<8 {
            bytes[index] = digits[Int((value >> UInt32(28 - 4 * index)) & 0xF)]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
