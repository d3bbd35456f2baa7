/// What may be done to a list or table.
public enum Action: String, Sendable, CaseIterable {
    /// Read its pages, JSON, rows and live updates.
    case view
    case insert, update, delete
    /// Run SQL of one's own (`/-/query`) and canned queries.
    case query

    /// Its place in ``allCases``.
    var index: Int {
        switch self {
        case .view: 0
        case .insert: 1
        case .update: 2
        case .delete: 3
        case .query: 4
        }
    }
}

/// Who may do what, per list or table: grants of ``Action``s to accounts, groups, `signed-in`
/// (any account) or `anyone`.
///
/// ```yaml
/// permissions:
///   "*": {view: [signed-in]}            # every list
///   notes: {update: [alice, editors], delete: [alice]}
///   /drafts: {view: [editors]}         # by path
///   /recipes/:id: {view: [editors]}    # a list's details (otherwise they inherit its grants)
/// ```
///
/// ```swift
/// app.access.permissions.grant(.update, on: "notes", to: "alice", "editors")
/// ```
///
/// A key that starts with `/` is a list's path; another a table's name (a database table's list
/// is at `/{name}`, an app's list at `/{key}`); `"*"` every list. For each action, a list's own
/// entry replaces `"*"`, and an entry by path beats one by name. Without any entry for an action,
/// anyone views and nobody does anything else; `query` is open to anyone only while every list is
/// viewable by anyone.
public struct Permissions: Sendable, Equatable {
    /// Any request, signed in or not.
    public static let anyone = "anyone"
    /// Any signed-in account.
    public static let signedIn = "signed-in"
    /// Every list.
    public static let everyList = "*"

    /// Grantees by key (a path, a table's name or `*`), then by action.
    public var grants: [String: [Action: Set<String>]] = [:] {
        didSet { resolve() }
    }

    /// Whether any entry names `view`. Without one anyone views every list, which
    /// ``allows(_:_:path:)`` answers without looking the path up: every page asks.
    private var someEntryGrantsView = false
    /// The grants by list path, a table's name under `/{name}`, a path's entry before a name's for
    /// each action; made once for each change of ``grants``, so that a check hashes its path once.
    private var byPath: [String: Entry] = [:]
    /// The `"*"` entry.
    private var everyListEntry = Entry()
    /// ``everyListViewableByAnyone``, kept for the `query` default.
    private var queryOpenToAnyone = true

    public init() {}

    /// Lets `grantees` (account names, group names, `signed-in`, `anyone`) do `action` on `key`.
    public mutating func grant(_ action: Action, on key: String, to grantees: String...) {
        grants[key, default: [:]][action, default: []].formUnion(grantees)
    }

    /// The key of a list's details (`/recipes` → `/recipes/:id`): an entry under it replaces the
    /// list's own, for the actions it names, on the list's detail pages and detail lists; without
    /// one, a detail inherits its list's grants.
    public static func detailKey(of listPath: String) -> String {
        listPath + detailSuffix
    }

    /// The list whose grants a key falls back to: `/recipes/:id` → `/recipes`; any other key is its own.
    public static func listPath(of key: String) -> String {
        key.hasSuffix(detailSuffix) ? String(key.dropLast(detailSuffix.utf8.count)) : key
    }

    private static let detailSuffix = "/:id"

    /// Who may do `action` on the list at `path` (`/notes`; `/notes/:id` for its details), or on
    /// the SQL page when `path` is nil.
    public func grantees(of action: Action, path: String?) -> Set<String> {
        resolvedGrantees(of: action, path: path).names
    }

    /// ``grantees(of:path:)`` as made once for the grants in force.
    private func resolvedGrantees(of action: Action, path: String?) -> Grantees {
        // No entry by path (none at all, or only `"*"`): the path is not hashed for nothing.
        if let path, !byPath.isEmpty {
            if let grantees = byPath[path]?[action] { return grantees }
            if path.hasSuffix(Self.detailSuffix) { return resolvedGrantees(of: action, path: Self.listPath(of: path)) }
        }
        if let grantees = everyListEntry[action] { return grantees }
        switch action {
        case .view: return .anyone
        case .query: return queryOpenToAnyone ? .anyone : .nobody
        case .insert, .update, .delete: return .nobody
        }
    }

    /// Whether `actor` (nil: not signed in) may do `action` on the list at `path` (nil: the SQL page).
    public func allows(_ actor: SignedInActor?, _ action: Action, path: String?) -> Bool {
        if action == .view, !someEntryGrantsView { return true }
        return resolvedGrantees(of: action, path: path).admit(actor)
    }

    /// Works out ``byPath``, ``everyListEntry`` and the flags from ``grants``.
    private mutating func resolve() {
        someEntryGrantsView = grants.values.contains { $0[.view] != nil }
        queryOpenToAnyone = everyListViewableByAnyone
        everyListEntry = Entry(grants[Self.everyList] ?? [:])
        var byPath: [String: Entry] = [:]
        for (key, actions) in grants where key != Self.everyList {
            if key.hasPrefix("/") {
                byPath[key, default: Entry()].fill(with: actions, replacing: true)
            } else if !key.isEmpty, !key.hasSuffix(Self.detailSuffix) {
                // A table's name: its list at `/{name}`, where the path's own entry comes first.
                // (A detail's grants are looked up by path only.)
                byPath["/" + key, default: Entry()].fill(with: actions, replacing: false)
            }
        }
        self.byPath = byPath
    }

    /// One key's grantees for each action.
    private struct Entry: Sendable, Equatable {
        private var grantees: [Grantees?] = Array(repeating: nil, count: Action.allCases.count)

        init() {}

        init(_ actions: [Action: Set<String>]) {
            fill(with: actions, replacing: true)
        }

        subscript(action: Action) -> Grantees? {
            grantees[action.index]
        }

        /// Sets the actions `actions` names; one already set stays unless `replacing`.
        mutating func fill(with actions: [Action: Set<String>], replacing: Bool) {
            for (action, names) in actions where replacing || grantees[action.index] == nil {
                grantees[action.index] = Grantees(names)
            }
        }
    }

    /// A set of grantees, with whether it names `anyone` and `signed-in` worked out when made.
    private struct Grantees: Sendable, Equatable {
        let names: Set<String>
        let anyone: Bool
        let signedIn: Bool

        init(_ names: Set<String>) {
            self.names = names
            anyone = names.contains(Permissions.anyone)
            signedIn = names.contains(Permissions.signedIn)
        }

        static let anyone = Grantees([Permissions.anyone])
        static let nobody = Grantees([])

        /// Whether `actor` (nil: not signed in) is among them: by name, by one of its groups, as any signed-in account.
        func admit(_ actor: SignedInActor?) -> Bool {
            if anyone { return true }
            guard let actor else { return false }
            return signedIn || names.contains(actor.name) || !names.isDisjoint(with: actor.groups)
        }
    }

    /// True when every grant is to `anyone` alone (a list anyone may edit): such grants need no
    /// one to sign in, so they do not turn sign-in on.
    public var grantsOnlyToAnyone: Bool {
        grants.values.allSatisfy { entry in entry.values.allSatisfy { $0 == [Self.anyone] } }
    }

    /// True while no grant of `view` leaves `anyone` out: then the SQL page reads nothing a visitor could not.
    var everyListViewableByAnyone: Bool {
        grants.values.allSatisfy { entry in entry[.view].map { $0.contains(Self.anyone) } ?? true }
    }
}
