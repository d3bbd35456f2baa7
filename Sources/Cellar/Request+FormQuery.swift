import MicroHTTP

extension Request {
    /// The request as the GET of its form: the body's items (`application/x-www-form-urlencoded`)
    /// after the URL's own in ``query`` and ``rawQuery``, so that the controller, the paging and
    /// the page's links read them as they read a query (``ListRoute/acceptsFormPosts``).
    ///
    /// - Throws: what ``MicroHTTP/Request/formItems()`` throws: 415 for a body of another type, 400 for one that is not a form.
    public func withFormInQuery() throws(HTTPError) -> Request {
        let form = try formItems()
        guard !form.isEmpty else { return self }
        var request = self
        for item in form { request.query.append(name: item.name, value: item.value) }
        // The body was just parsed as a form, so it is UTF-8 once its escapes are; its raw bytes are too.
        let raw = String(decoding: body, as: UTF8.self)
        request.rawQuery = rawQuery.map { $0.isEmpty ? raw : $0 + "&" + raw } ?? raw
        request.method = .get
        request.body = []
        return request
    }
}
