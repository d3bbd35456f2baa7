import TableKit

/// The sink a live list walks a watched window into: it lets the page's own sink (`Page`, the HTML
/// or the JSON twin's) write each section and row, and keeps, for the ``WindowVersion``, each
/// row's bytes as that sink wrote them, its identity and a digest of the bytes, and each section's
/// identifier and titles. The ``TableWalk`` asks the controller for each row's identity and cell provider once,
/// as it does for the page.
struct WindowVersionSink<Page: PageRowSink & ~Copyable>: TableWalkSink, ~Copyable {
    private var page: Page
    private var sections: [WindowVersion.Section] = []
    /// Each section's rows: identity and digest.
    private var items: [[(id: String, content: UInt64)]] = []
    private var rows: [String: [UInt8]] = [:]

    init(page: consuming Page) {
        self.page = page
    }

    /// Never enough to pause: a window is rendered whole, and only its rows' bytes are kept.
    var byteCount: Int { 0 }

    mutating func openSection(_ section: TableWalk.Section) {
        page.openSection(section)
        page.discardWritten()
        sections.append(WindowVersion.Section(index: section.index, identifier: section.identifier, header: section.header, footer: section.footer))
        items.append([])
    }

    mutating func writeRow(at indexPath: IndexPath, identifier: consuming String, provider: DataCellProvider) throws {
        let id = copy identifier
        try page.writeRow(at: indexPath, identifier: identifier, provider: provider)
        let bytes = page.takeWritten()
        items[items.count - 1].append((id, WindowVersion.digest(bytes)))
        rows[id] = bytes
    }

    mutating func closeSection(_ section: TableWalk.Section) {
        page.closeSection(section)
        page.discardWritten()
    }

    /// The version walked.
    ///
    /// - Throws: ``SnapshotError/duplicateIdentifier(_:inOldVersion:)`` when two rows share an identity.
    consuming func version() throws(SnapshotError) -> WindowVersion {
        var version = WindowVersion()
        for (section, items) in zip(sections, items) {
            try version.snapshot.appendSections([section.identifier])
            try version.snapshot.appendItems(items, toSection: section.identifier)
        }
        version.sections = sections
        version.rows = rows
        return version
    }
}
