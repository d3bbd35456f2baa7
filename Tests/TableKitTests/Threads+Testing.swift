import Foundation
import Synchronization

/// Runs `race` on `count` threads of their own, each after its own `prepare`, released together
/// from a spinning barrier so that they really do race: `DispatchQueue.concurrentPerform` runs
/// only as many iterations at once as there are cores, and its first ones are often done before
/// the last ones start. Returns when every thread is done.
func runConcurrently<State>(
    threads count: Int, prepare: @escaping @Sendable (Int) -> State, race: @escaping @Sendable (Int, State) -> Void
) {
    let barrier = SpinBarrier(parties: count)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            let state = prepare(index)
            barrier.arriveAndWait()
            race(index, state)
            done.leave()
        }
        thread.start()
    }
    done.wait()
}

/// Holds every thread until the last one arrives, then lets them all go at once (spinning, so
/// that none has to be woken up one after another by a condition variable).
final class SpinBarrier: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)

    init(parties: Int) {
        self.parties = parties
    }

    func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < parties {
            sched_yield()
        }
    }
}

/// Messages collected from several threads.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ message: String) {
        lock.withLock { stored.append(message) }
    }

    var entries: [String] {
        lock.withLock { stored }
    }
}
