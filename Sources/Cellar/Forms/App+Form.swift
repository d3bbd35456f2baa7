import MicroHTTP
import TableKit

extension App {
    /// Adds a form at `path`, as a static table view of field cells: a GET shows it in the site's
    /// frame; a POST of it (`application/x-www-form-urlencoded` from a browser, or JSON) is checked
    /// field by field, decoded into `Value` (each stored property from the field of its name) and
    /// handed to `submit`.
    ///
    /// ```swift
    /// app.form("/notes/new", title: "New tasting note", { _ in TastingNoteForm() }) { (note: TastingNote, request) in
    ///     guard note.tasted <= CalendarDay.today else { throw FormValidationError("tasted", "A tasting cannot be in the future.") }
    ///     notes.add(note)
    ///     app.listDidChange(at: "/notes")
    ///     return .created(at: "/notes")
    /// }
    /// ```
    ///
    /// - A submission with mistakes (a required field empty, a number that is not one, a choice
    ///   not offered, or a ``FormValidationError`` that `submit` throws) is answered 422: the
    ///   form again with the values sent, each field at fault marked `aria-invalid` with its message
    ///   tied by `aria-describedby`, and a summary at the top linking to each; JSON gets
    ///   `{"error": "…", "fields": {name: message}}`.
    /// - A kept one: a browser is sent to the result's location with a 303 (Post/Redirect/Get);
    ///   JSON gets 201 (or 200) with the value.
    /// - A body over `limits` is 413, too many fields or a field over its length 400 naming it, a
    ///   multipart body 415. A POST from another site never gets here (``crossOriginProtection``).
    ///
    /// `makeForm` makes the form per request (its fields' values are the ones a GET shows). An
    /// ``HTTPError`` thrown by either closure is the site's error page, any other error a 500.
    /// ``validate()`` makes the form once (for a request of `path` itself) and renders it: two
    /// fields of one name, or a field without one, stop the start.
    public func form<Value: Decodable>(
        _ path: String, title: String, limits: FormLimits = FormLimits(), _ makeForm: @escaping @Sendable (Request) throws -> any FormController,
        submit: @escaping @Sendable (Value, Request) throws -> FormResult
    ) {
        formChecks.append(
            (
                path,
                { snapshot in
                    let form = FormTable(try makeForm(Request(path: path)))
                    try FormDefinitionError.checkNames(of: form)
                    _ = try FormPage(title: title, path: path, action: nil, form: form, errors: [:]).response(
                        status: .ok, site: snapshot.site, registry: snapshot.registry)
                }
            ))
        for method in [HTTPMethod.get, .post] {
            extraRoutes.append(
                (
                    method, path,
                    { snapshot in
                        let responder = FormResponder(path: path, title: title, limits: limits, makeForm: makeForm, submit: submit, app: snapshot)
                        return { request in try responder.respond(to: request) }
                    }
                ))
        }
    }
}
