import Testing

@testable import ByteWriters

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LockedTests {
    /// Threads adding under the lock lose no update.
    @Test func threadsAddingUnderTheLockLoseNothing() {
        let counter = Locked(0)
        let threads = 4
        let additions = 20_000
        var handles: [pthread_t] = []
        for _ in 0..<threads {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(Box { for _ in 0..<additions { counter.withLock { $0 += 1 } } }).toOpaque()
            let created = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
                    return nil
                }, context)
            #expect(created == 0)
            handles.append(thread)
        }
        for thread in handles { pthread_join(thread, nil) }
        #expect(counter.withLock { $0 } == threads * additions)
    }

    /// A wait nobody signals ends at its deadline and says so; a lock guarding nothing runs its body.
    @Test func anUnsignalledTimedWaitEndsFalse() {
        let lock = Lock()
        let condition = Condition()
        let signalled = lock.withLock { lock.wait(for: condition, until: Condition.deadline(after: .milliseconds(5))) }
        #expect(!signalled)
        #expect(lock.withLock { 42 } == 42)
    }

    private final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
