#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a pthread mutex: the package's one lock.
///
/// Not `Synchronization.Mutex`: ThreadSanitizer on Linux cannot see the futex it waits on and
/// reports the accesses it guards as races (still so with Swift 6.3.1), and the suites run under
/// ThreadSanitizer. ``Lock`` is the same type guarding nothing, for state kept beside it.
///
/// Public, as Cellar names it for apps (a store kept in memory that a form adds to); its waits
/// on a condition stay the package's.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Waits in `withLock` until `condition` is signalled (the lock is released while waiting).
    package func wait(for condition: Condition) {
        pthread_cond_wait(condition.variable, mutex)
    }

    /// Waits in `withLock` until `condition` is signalled or the monotonic clock reaches
    /// `deadline` (from ``Condition/deadline(after:)``); false when the deadline passed.
    package func wait(for condition: Condition, until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition.variable, mutex, &deadline) == 0
    }
}

/// A lock for state kept beside it rather than in it.
package typealias Lock = Locked<Void>

extension Locked where Value == Void {
    package convenience init() {
        self.init(())
    }

    /// Runs `body` holding the lock.
    @inlinable package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A pthread condition variable, waited on with a ``Locked`` (see ``Locked/wait(for:)``); timed
/// waits measure the monotonic clock, which a change of the wall clock does not move.
package final class Condition: @unchecked Sendable {
    fileprivate let variable: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        variable = .allocate(capacity: 1)
        variable.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if !canImport(Darwin)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(variable, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(variable)
        variable.deallocate()
    }

    /// Wakes one waiter.
    package func signal() {
        pthread_cond_signal(variable)
    }

    /// The monotonic clock's time `duration` from now, for ``Locked/wait(for:until:)``.
    package static func deadline(after duration: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = duration.components
        var nanoseconds = now.tv_nsec + Int(attoseconds / 1_000_000_000)
        var wholeSeconds = now.tv_sec + Int(seconds)
        if nanoseconds >= 1_000_000_000 {
            nanoseconds -= 1_000_000_000
            wholeSeconds += 1
        }
        return timespec(tv_sec: wholeSeconds, tv_nsec: nanoseconds)
    }
}
