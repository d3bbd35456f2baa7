// swift-tools-version:6.1
import PackageDescription

// A Cellar app in its own package, as yours will be. It depends on the Cellar in this
// repository, two folders up.
//
// A dependency given by path takes its folder's name as its package identity (`cellar` in a
// clone named cellar, but `main`, `src` or anything else in another checkout), and
// `.product(name:package:)` looks the package up by that identity. `name: "cellar"` gives the
// dependency the name its products are looked up by, whatever the folder is called, so this
// builds from any checkout and in the Docker image (where the repository is in /src).
//
// In your own package, depend on Cellar by URL: the identity is the URL's last component,
// `cellar`, and no `name:` is needed:
//     .package(url: "https://github.com/<owner>/cellar.git", branch: "main")
let package = Package(
    name: "Bookshelf",
    dependencies: [
        .package(name: "cellar", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "Bookshelf",
            dependencies: [
                // Cellar serves the lists; TableKit has the cells and controllers (Cellar does not
                // re-export it, so a target that imports TableKit depends on it by name).
                .product(name: "Cellar", package: "cellar"),
                .product(name: "TableKit", package: "cellar"),
            ]
        )
    ]
)
