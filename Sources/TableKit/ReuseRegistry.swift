import ByteWriters
import FoundationEssentials

/// What each reuse identifier makes: the registrations of a server, shared by every render.
///
/// Fill it at start-up with ``register(_:)``, ``register(_:forCellReuseIdentifier:)`` and
/// ``registerPrototypes(in:)``. Afterwards it only grows: a ``DataCellProvider`` with
/// `registerCell: true` registers its class on first use. A registration is never replaced or
/// dropped, and two different cells claiming one identifier is an error, not a silent override.
///
/// The registry also keeps the ``ReusePool``s: each render checks one out through its
/// ``TableView`` and returns it when done, so cell instances are recycled across requests.
public final class ReuseRegistry: @unchecked Sendable {
    enum Registration {
        case cellClass(TableViewCell.Type)
        case prototype(PrototypeTemplate)

        var summary: String {
            switch self {
            case .cellClass(let type): "class \(String(reflecting: type))"
            case .prototype: "a prototype template"
            }
        }
    }

    // Guarded by `lock`. Pools keep their own copy of what they have looked up, so the steady
    // state of a render takes no lock at all.
    private let lock = Lock()
    private var registrations: [String: Registration] = [:]
    /// The file each prototype registered from one was read from.
    private var prototypeFiles: [String: String] = [:]
    private var prototypeSources = StableHash()
    private var idlePools: [ReusePool] = []
    private var allPools: [ReusePool] = []

    public init() {}

    // MARK: Registering

    /// Registers a class cell under its own ``CellIdentifiable/reuseIdentifier``.
    public func register<Cell: TableViewCell>(_ cellClass: Cell.Type) throws {
        try register(cellClass, forCellReuseIdentifier: cellClass.reuseIdentifier)
    }

    /// Registers a class cell under an identifier of your choosing.
    ///
    /// Registering the same class under the same identifier again changes nothing; any other
    /// cell already holding the identifier makes this throw ``TableKitError/duplicateIdentifier(_:existing:new:)``.
    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) throws {
        try add(.cellClass(cellClass), for: identifier)
    }

    /// Registers a prototype cell from its template source.
    ///
    /// The line break that ends the source's last line, one `"\n"` or `"\r\n"`, is not part of the
    /// template: a text file ends with one, and it would otherwise be copied into every row. Any
    /// other whitespace is the template's own and stays. `file` is where the source was read from,
    /// for messages.
    public func registerPrototype(_ identifier: String, template source: String, file: String? = nil) throws {
        guard ReuseRegistry.isValidPrototypeIdentifier(identifier) else { throw TableKitError.invalidIdentifier(identifier) }
        let source = ReuseRegistry.droppingFinalLineBreak(source)
        let template: PrototypeTemplate
        do {
            template = try PrototypeTemplate(source)
        } catch let error as PrototypeTemplateError {
            throw TableKitError.invalidPrototype(identifier: identifier, file: file, error: error)
        }
        try add(.prototype(template), for: identifier)
        lock.withLock {
            prototypeFiles[identifier] = file
            prototypeSources.combine(identifier)
            prototypeSources.combine(source)
        }
    }

    /// `source` without the line break that ends its last line, if it has one.
    static func droppingFinalLineBreak(_ source: String) -> String {
        var scalars = source.unicodeScalars[...]
        guard scalars.last == "\n" else { return source }
        scalars.removeLast()
        if scalars.last == "\r" { scalars.removeLast() }
        return String(scalars)
    }

    /// A fingerprint of every prototype registered so far: their identifiers and template sources
    /// (as registered, without a final line break), in the order they were registered. Cellar
    /// mixes it into the validators it derives from a controller's
    /// ``TableController/contentVersion``, so an edited template changes them.
    package var prototypeFingerprint: UInt64 {
        lock.withLock { prototypeSources.value }
    }

    /// Registers every `<Identifier>.html` in a folder as a prototype cell; returns the identifiers.
    /// Each file is registered as ``registerPrototype(_:template:file:)`` registers a source,
    /// without the line break that ends its last line.
    @discardableResult
    public func registerPrototypes(in directory: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw TableKitError.unreadablePrototypes(path: directory, reason: "the folder cannot be listed")
        }
        var identifiers: [String] = []
        for name in names.sorted() where name.hasSuffix(".html") {
            let identifier = String(name.dropLast(5))
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else {
                throw TableKitError.unreadablePrototypes(path: path, reason: "the file cannot be read")
            }
            guard let source = String(validating: data, as: UTF8.self) else {
                throw TableKitError.unreadablePrototypes(path: path, reason: "the file is not UTF-8")
            }
            try registerPrototype(identifier, template: source, file: path)
            identifiers.append(identifier)
        }
        return identifiers
    }

    /// Registers a class on first use, for providers made with `registerCell: true`. Thread-safe.
    func registerIfNeeded(_ cellClass: TableViewCell.Type, identifier: String) throws -> Registration {
        let registration = Registration.cellClass(cellClass)
        try add(registration, for: identifier)
        return registration
    }

    private func add(_ registration: Registration, for identifier: String) throws {
        try lock.withLock {
            if let existing = registrations[identifier] {
                if case .cellClass(let old) = existing, case .cellClass(let new) = registration, old == new { return }
                throw TableKitError.duplicateIdentifier(identifier, existing: existing.summary, new: registration.summary)
            }
            registrations[identifier] = registration
        }
    }

    // MARK: Looking up

    /// Every registered identifier, sorted.
    public var registeredIdentifiers: [String] {
        lock.withLock { registrations.keys.sorted() }
    }

    /// The identifiers registered as prototypes, sorted.
    public var prototypeIdentifiers: [String] {
        lock.withLock {
            registrations.compactMap { key, value in
                if case .prototype = value { return key }
                return nil
            }.sorted()
        }
    }

    /// Whether anything is registered under `identifier`.
    public func isRegistered(_ identifier: String) -> Bool {
        lock.withLock { registrations[identifier] != nil }
    }

    func registration(for identifier: String) -> Registration? {
        lock.withLock { registrations[identifier] }
    }

    /// The template registered as a prototype under `identifier`, and the file it was read from
    /// when it came from one; `nil` when `identifier` is not a prototype's.
    func prototype(_ identifier: String) -> (template: PrototypeTemplate, file: String?)? {
        lock.withLock {
            guard case .prototype(let template) = registrations[identifier] else { return nil }
            return (template, prototypeFiles[identifier])
        }
    }

    static func isValidPrototypeIdentifier(_ identifier: String) -> Bool {
        !identifier.isEmpty && identifier.utf8.count <= 128
            && identifier.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    // MARK: Pools

    func checkoutPool() -> ReusePool {
        lock.withLock {
            if let pool = idlePools.popLast() { return pool }
            let pool = ReusePool()
            allPools.append(pool)
            return pool
        }
    }

    func checkin(_ pool: ReusePool) {
        lock.withLock { idlePools.append(pool) }
    }

    /// Cells created and reused so far, over every pool.
    public var statistics: ReuseStatistics {
        let pools = lock.withLock { allPools }
        var statistics = ReuseStatistics(pools: pools.count)
        for pool in pools {
            statistics.cellsCreated += pool.cellsCreated
            statistics.cellsReused += pool.cellsReused
        }
        return statistics
    }
}

/// How well recycling works: cells made versus cells reused.
public struct ReuseStatistics: Sendable, Equatable {
    public var pools: Int
    public var cellsCreated = 0
    public var cellsReused = 0
}
