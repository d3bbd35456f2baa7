import Synchronization

/// Recycled cell instances, as UITableView keeps them: one pool per render in flight.
///
/// A pool is used by one render at a time (its ``TableView`` checks it out of the
/// ``ReuseRegistry`` and returns it), so its free lists need no lock. Pools outlive requests:
/// in the steady state every cell is a reused one, and rendering creates no instances.
public final class ReusePool {
    final class Entry {
        let identifier: String
        let registration: ReuseRegistry.Registration
        let styleClass: [UInt8]
        @exclusivity(unchecked) var idle: [TableViewCell] = []

        init(identifier: String, registration: ReuseRegistry.Registration, styleClass: [UInt8]) {
            self.identifier = identifier
            self.registration = registration
            self.styleClass = styleClass
        }
    }

    @exclusivity(unchecked) var entries: [String: Entry] = [:]
    /// The entry found last, checked first.
    @exclusivity(unchecked) var lastEntry: Entry?
    /// Entries of class cells dequeued under their own name, found without spelling the name.
    @exclusivity(unchecked) var classEntries: [ObjectIdentifier: Entry] = [:]
    // Atomics only so that metrics can read them from another thread; each pool has its own,
    // so the counting threads never contend.
    private let created = Atomic<Int>(0)
    private let reused = Atomic<Int>(0)

    init() {}

    /// Cell instances this pool has made.
    public var cellsCreated: Int { created.load(ordering: .relaxed) }
    /// Times this pool handed out a recycled instance.
    public var cellsReused: Int { reused.load(ordering: .relaxed) }

    func countCreated() { created.add(1, ordering: .relaxed) }
    func countReused() { reused.add(1, ordering: .relaxed) }
}
