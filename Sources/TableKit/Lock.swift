#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex. (`Synchronization.Mutex` is reported as a race by ThreadSanitizer on Linux,
/// whose futex it cannot see; a pthread mutex keeps the suite TSan-clean.)
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits in `withLock` until `condition` is signalled (the lock is released while waiting).
    package func wait(for condition: Condition) {
        pthread_cond_wait(condition.variable, mutex)
    }
}

/// A pthread condition variable, waited on with a ``Lock`` (see ``Lock/wait(for:)``).
package final class Condition: @unchecked Sendable {
    fileprivate let variable: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        variable = .allocate(capacity: 1)
        variable.initialize(to: pthread_cond_t())
        pthread_cond_init(variable, nil)
    }

    deinit {
        pthread_cond_destroy(variable)
        variable.deallocate()
    }

    /// Wakes one waiter.
    package func signal() {
        pthread_cond_signal(variable)
    }
}
