/// The files every Cellar site is served with under `/static/`: `app.css`, `app.js` and
/// `favicon.svg`, which the pages link to.
///
/// They are part of the library's binary, not files beside it, so an app built on Cellar serves
/// them without copying anything, in a container image too. A file of the same name in the app's
/// public folder is served instead (``App/publicDirectory``).
///
/// Their text is in `Sources/Cellar/Site/Assets/`, ordinary `.css`, `.js` and `.svg` files that
/// editors and linters read; SwiftPM embeds each in the binary as a byte array
/// (`resources: [.embedInCode("Site/Assets")]` in Package.swift, `PackageResources.<name>`, the
/// name's dots and `+` written `_`). `app.css` and `app.js` are made of parts, one file each,
/// served one after the other: adding a part is a file `app+feature.css` (or `.js`) and its line
/// in ``stylesheetParts`` (or ``scriptParts``).
enum SiteAssets {
    /// The parts of `/static/app.css` by their file name in `Site/Assets/`, in the order they are
    /// served: `app.css` (the inset-grouped look of lists, cells, details and error pages, light and
    /// dark), then the others by name, which the tests hold to (the mock server in `Tests/e2e`
    /// serves them so without reading Swift).
    static let stylesheetParts: KeyValuePairs<String, [UInt8]> = [
        "app.css": PackageResources.app_css,
        "app+choices.css": PackageResources.app_choices_css,
        "app+columns.css": PackageResources.app_columns_css,
        "app+editing.css": PackageResources.app_editing_css,
        "app+explore.css": PackageResources.app_explore_css,
        "app+forms.css": PackageResources.app_forms_css,
        "app+session.css": PackageResources.app_session_css,
    ]

    /// The parts of `/static/app.js`, in the same order: `app.js` ("Load more", infinite scroll,
    /// the live region, live lists), then the others by name. Each part stands alone (its own
    /// `'use strict'` function), and the pages work without any of them.
    static let scriptParts: KeyValuePairs<String, [UInt8]> = [
        "app.js": PackageResources.app_js,
        "app+choices.js": PackageResources.app_choices_js,
        "app+editing.js": PackageResources.app_editing_js,
        "app+explore.js": PackageResources.app_explore_js,
    ]

    /// The built-in files by their path under `/static/`, each made of its files in `Site/Assets/`.
    static let files: [String: [UInt8]] = [
        "app.css": stylesheetParts.flatMap(\.value),
        "app.js": scriptParts.flatMap(\.value),
        "favicon.svg": PackageResources.favicon_svg,
    ]
}
