import ByteWriters
import Synchronization

/// Recycled cell instances, as UITableView keeps them: one pool per render in flight.
///
/// A pool is used by one render at a time (its ``TableView`` checks it out of the
/// ``ReuseRegistry`` and returns it), so its free lists need no lock. Pools outlive requests:
/// in the steady state every cell is a reused one, and rendering creates no instances.
public final class ReusePool {
    final class Entry {
        let identifier: String
        /// This entry's number, unique in the process: what a cell made for it remembers.
        let serial = Entry.serials.add(1, ordering: .relaxed).newValue
        private static let serials = Atomic<UInt64>(0)
        let registration: ReuseRegistry.Registration
        /// The class cells of this entry are made from (nil for prototypes), compared by identity.
        let cellClass: TableViewCell.Type?
        /// The row element's opening up to its identifier, `<li class="cell STYLE" id="row-`, with
        /// the CSS class escaped once for an attribute value; and the same as a table row's,
        /// `<tr class="cell STYLE" id="row-`, for the columns layout. Raw memory owned by the entry,
        /// so a row writes its opening as one copy of bytes, with no object to count.
        let rowOpening: UnsafeRawBufferPointer
        let tableRowOpening: UnsafeRawBufferPointer
        /// The cell recycled last: the top of this entry's idle cells, each linked to the one
        /// recycled before it (``TableViewCell/nextIdleCell``), last in first out.
        // A list through the cells rather than an array: popping and pushing are a few loads and
        // stores with no call inside an access, which lets the whole-module build prove the
        // accesses exclusive at compile time (an array's append may call out to grow).
        private var topIdleCell: TableViewCell?

        /// Takes the cell recycled last, if any.
        @inline(__always) func popIdleCell() -> TableViewCell? {
            guard let cell = topIdleCell.take() else { return nil }
            topIdleCell = cell.nextIdleCell.take()
            cell.isIdle = false
            return cell
        }

        /// Keeps `cell` as the next one to hand out, taking over the caller's reference.
        @inline(__always) func pushIdleCell(_ cell: consuming TableViewCell) {
            let cell = consume cell
            // Recycled twice: it is in the list already (linking it again would loop the list).
            guard !cell.isIdle else { return }
            cell.isIdle = true
            var below = topIdleCell.take()
            topIdleCell = cell
            swap(&cell.nextIdleCell, &below)
            // A cell out of the pool links to no other (popping unlinks it); checked here, which
            // also spares the release of what it linked to.
            precondition(below == nil, "a recycled cell was still linked into its pool's idle cells")
        }

        init(identifier: String, registration: ReuseRegistry.Registration, styleClass: String) {
            self.identifier = identifier
            self.registration = registration
            if case .cellClass(let type) = registration { cellClass = type } else { cellClass = nil }
            rowOpening = Self.opening("<li", styleClass: styleClass)
            tableRowOpening = Self.opening("<tr", styleClass: styleClass)
        }

        /// `tag class="cell STYLE" id="row-` in memory the entry owns.
        private static func opening(_ tag: StaticString, styleClass: String) -> UnsafeRawBufferPointer {
            var opening = HTMLWriter()
            opening.raw(tag)
            opening.raw(" class=\"cell ")
            opening.text(styleClass)
            opening.raw("\" id=\"row-")
            let bytes = opening.takeBytes()
            let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
            return UnsafeRawBufferPointer(storage)
        }

        deinit {
            rowOpening.deallocate()
            tableRowOpening.deallocate()
            // Unlinked one by one, so that freeing a long list never depends on each cell's
            // release recursing into the next (2.5 million idle cells freed fine without this in
            // a debug build; it costs nothing per row).
            while let cell = topIdleCell.take() {
                topIdleCell = cell.nextIdleCell.take()
            }
        }
    }

    var entries: [String: Entry] = [:]
    /// The entry found last by identifier, checked before hashing: rows of one kind tend to follow each other.
    var lastEntry: Entry?
    /// The entry found last by class.
    var lastClassEntry: Entry?
    /// Entries of class cells dequeued under their own name, found without spelling the name.
    var classEntries: [ObjectIdentifier: Entry] = [:]
    // Atomics only so that metrics can read them from another thread; each pool has its own,
    // so the counting threads never contend.
    private let created = Atomic<Int>(0)
    private let reused = Atomic<Int>(0)

    init() {}

    /// Cell instances this pool has made.
    public var cellsCreated: Int { created.load(ordering: .relaxed) }
    /// Times this pool handed out a recycled instance.
    public var cellsReused: Int { reused.load(ordering: .relaxed) }

    // One writer at a time (the render that checked the pool out; the registry's lock orders the
    // hand-overs), so a count is a relaxed load and store: plain moves, where an atomic add is a
    // locked instruction on every row. Readers on other threads still see whole values.
    func countCreated() { created.store(created.load(ordering: .relaxed) &+ 1, ordering: .relaxed) }
    func countReused() { reused.store(reused.load(ordering: .relaxed) &+ 1, ordering: .relaxed) }
}
