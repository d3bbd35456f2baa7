#if canImport(Glibc)
    import Glibc
#endif

/// The memory use of the current process, from `/proc/self/status` (Linux only).
public enum ProcessMemory {
    /// The resident set size in bytes (`VmRSS`), or nil when unavailable.
    public static func residentBytes() -> Int? {
        field("VmRSS:")
    }

    /// The peak resident set size in bytes (`VmHWM`), or nil when unavailable.
    public static func peakResidentBytes() -> Int? {
        field("VmHWM:")
    }

    private static func field(_ name: String) -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(name) else { continue }
            let number = text.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) }
            return number.map { $0 * 1024 }
        }
        return nil
    }
}
