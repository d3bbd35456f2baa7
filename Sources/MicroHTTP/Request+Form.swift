extension Request {
    /// The items of a form's body (`application/x-www-form-urlencoded`, what an HTML form posts
    /// unless it says otherwise), decoded as a query string's are.
    ///
    /// - Throws: ``HTTPError`` 415 for a body of another type (a multipart form: give the form no
    ///   `enctype`), 400 for a malformed one.
    public func formItems() throws(HTTPError) -> QueryItems {
        let mediaType = headers["Content-Type"]?.split(separator: ";", maxSplits: 1).first?.trimmingSpaces().lowercased()
        guard mediaType == "application/x-www-form-urlencoded" || (mediaType == nil && body.isEmpty) else {
            throw HTTPError(
                .unsupportedMediaType,
                "This form takes application/x-www-form-urlencoded, what an HTML form sends without an enctype (got \(mediaType ?? "no Content-Type"))."
            )
        }
        return try QueryItems(parsing: body)
    }
}
