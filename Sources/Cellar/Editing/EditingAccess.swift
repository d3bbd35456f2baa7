import MicroHTTP

/// Who may change a list, and the keys an Undo is signed with: sign-in's (``AccessControl``) when
/// the app signs people in; otherwise the app's permissions for a visitor (a list granted to
/// `anyone`, which needs no sign-in) and the session keys given, or a key made for this process.
struct EditingAccess: Sendable {
    let control: AccessControl?
    /// The app's permissions, for an app that signs no one in.
    let permissions: Permissions
    let keys: SessionKeys

    /// Whether any list may be changed by anyone at all: when not, pages skip asking whether their
    /// controller is editable (a cast that searches the runtime's conformances).
    var mayChangeAnyList: Bool {
        control != nil || permissions.grants.values.contains { $0[.insert] != nil || $0[.update] != nil || $0[.delete] != nil }
    }

    /// Whether `request`'s actor may do `action` on the list at `path`.
    func permits(_ request: Request, _ action: Action, on path: String) -> Bool {
        if let control { return control.permits(request, action, on: path) }
        return permissions.allows(nil, action, path: path)
    }

    /// Throws the refusal a request gets when its actor may not do `action` on `path`.
    func require(_ request: Request, _ action: Action, on path: String) throws(HTTPError) {
        if let control { return try control.require(request, action, on: path) }
        guard permits(request, action, on: path) else {
            throw HTTPError(.forbidden, "No one may make this change here: the list's permissions do not allow \(action.rawValue).")
        }
    }

    /// Seconds since 1970 (a test's clock, under sign-in's).
    func now() -> Int64 {
        control?.now() ?? AccessControl.epochSeconds()
    }
}
