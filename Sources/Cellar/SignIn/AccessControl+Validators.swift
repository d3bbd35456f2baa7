import ByteWriters
import MicroHTTP

extension AccessControl {
    /// Adds to a page's validator what the page shows of `request`'s rights: the navigation
    /// leaves out the lists its actor may not view, and a list offers the controls its actor may
    /// use ("Edit"). Both follow the accounts and permissions in force, which a reload (SIGHUP)
    /// replaces while the list's own version stays the same, so the reload's ``generation`` is
    /// mixed in: one atomic load a request. A bearer token narrows its actor's grants, so two
    /// tokens of one actor may see different pages: for a request with `Authorization`, the
    /// actions it may take on the list and the lists hidden from it are mixed in as well.
    func validatorInputs(of request: Request, list path: String, into hash: inout StableHash) {
        hash.combine(generation.load(ordering: .relaxed))
        guard request.headers["Authorization"] != nil else { return }
        hash.combine(allowedActions(request, on: path))
        for hidden in unviewable(listPaths, by: request).sorted() { hash.combine(hidden) }
    }
}
