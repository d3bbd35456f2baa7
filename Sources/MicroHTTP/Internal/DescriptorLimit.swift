import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open descriptors (`RLIMIT_NOFILE`), raised to what the connection limits need.
///
/// Each connection, event streams included, holds a socket; the soft limit is often 1024 (a
/// login shell's default) while the hard limit allows far more, and a process may raise its soft
/// limit up to the hard one without privileges.
enum DescriptorLimit {
    /// Descriptors kept for what is not a connection: the listening socket, epoll and wake-up
    /// descriptors of each worker, log files, static files being sent, a database's files.
    static let reserve = 256

    /// Raises the soft limit to `needed` (or the hard limit, if lower); logs a warning when the hard limit is too low.
    static func raise(toAtLeast needed: Int, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return }
        let wanted = rlim_t(needed)
        guard limit.rlim_cur < wanted else { return }
        let target = min(wanted, limit.rlim_max)
        if target > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(RLIMIT_NOFILE_VALUE, &raised) == 0 { limit.rlim_cur = target }
        }
        if limit.rlim_cur < wanted {
            logger.warning(
                "The descriptor limit is below what the connection limits need; connections past it will be refused",
                metadata: ["descriptor_limit": "\(limit.rlim_cur)", "needed": "\(needed)"])
        }
    }

    #if canImport(Glibc)
        private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
    #endif
}
