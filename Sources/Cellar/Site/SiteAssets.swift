/// The files every Cellar site is served with under `/static/`: `app.css`, `app.js` and
/// `favicon.svg`, which the pages link to.
///
/// They are part of the library's binary, not files beside it, so an app built on Cellar serves
/// them without copying anything, in a container image too. A file of the same name in the app's
/// public folder is served instead (``App/publicDirectory``). Each is written out in its own Swift
/// file (`Stylesheet.swift`, `Stylesheet+Columns.swift` and `Stylesheet+Forms.swift`, `Script.swift`, `Favicon.swift`), the only copy in the
/// repository.
enum SiteAssets {
    /// The built-in files by their path under `/static/`.
    static let files: [String: [UInt8]] = [
        "app.css": Array((stylesheet + columnsStylesheet + formsStylesheet + editingStylesheet).utf8),
        "app.js": Array(script.utf8),
        "favicon.svg": Array(favicon.utf8),
    ]
}
