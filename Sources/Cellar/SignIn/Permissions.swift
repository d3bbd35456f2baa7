/// What may be done to a list or table.
public enum Action: String, Sendable, CaseIterable {
    /// Read its pages, JSON, rows and live updates.
    case view
    case insert, update, delete
    /// Run SQL of one's own (`/-/query`) and canned queries.
    case query
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
        didSet { someEntryGrantsView = grants.values.contains { $0[.view] != nil } }
    }

    /// Whether any entry names `view`. Without one anyone views every list, which
    /// ``allows(_:_:path:)`` answers without looking the path up: every page asks.
    private var someEntryGrantsView = false

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
        if let path, path.hasSuffix(Self.detailSuffix) {
            if let entry = grants[path]?[action] { return entry }
            return grantees(of: action, path: Self.listPath(of: path))
        }
        // No grants at all (accounts without permissions): the defaults, without hashing the path
        // three times for nothing; this runs for every request once sign-in is on.
        if !grants.isEmpty {
            if let path {
                if let entry = grants[path]?[action] { return entry }
                // The table's name: the path without its `/`, by bytes (dropping a Character
                // runs Unicode's grapheme breaking).
                let name = String(decoding: path.utf8.dropFirst(), as: UTF8.self)
                if !name.isEmpty, let entry = grants[name]?[action] { return entry }
            }
            if let entry = grants[Self.everyList]?[action] { return entry }
        }
        switch action {
        case .view: return Self.anyoneAlone
        case .query: return everyListViewableByAnyone ? Self.anyoneAlone : []
        case .insert, .update, .delete: return []
        }
    }

    /// `[anyone]`, made once: a set literal in ``grantees(of:path:)`` allocated and hashed on every request.
    private static let anyoneAlone: Set<String> = [anyone]

    /// Whether `actor` (nil: not signed in) may do `action` on the list at `path` (nil: the SQL page).
    public func allows(_ actor: SignedInActor?, _ action: Action, path: String?) -> Bool {
        if action == .view, !someEntryGrantsView { return true }
        let grantees = grantees(of: action, path: path)
        if grantees.contains(Self.anyone) { return true }
        guard let actor else { return false }
        return grantees.contains(Self.signedIn) || grantees.contains(actor.name) || !grantees.isDisjoint(with: actor.groups)
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
