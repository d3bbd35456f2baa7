// swift-tools-version:6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "cellar",
    products: [
        .executable(name: "cellar", targets: ["cellar"]),
        .library(name: "ByteWriters", targets: ["ByteWriters"]),
        .library(name: "TableKit", targets: ["TableKit"]),
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .library(name: "Cellar", targets: ["Cellar"]),
        .library(name: "Showcase", targets: ["Showcase"]),
        .library(name: "CellarDatabase", targets: ["CellarDatabase"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // libmicrohttpd, with prefixed non-variadic wrappers in shim.h. Only MicroHTTP imports it.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Debian's libsqlite3, with wrappers in shim.h for the macros Swift cannot import. Only CellarDatabase imports it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Debian's libpq (the PostgreSQL client library), for PostgreSQL connections. Only CellarDatabase imports it.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // Debian's OpenSSL (libcrypto, which libpq already links): HMAC-SHA256, scrypt, CRYPTO_memcmp, RAND_bytes
        // for sign-in and sessions; no crypto of our own, and nothing to compile (BENCHMARKS.md, "Sign-in's crypto").
        // Only Cellar imports it.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // SSE2 byte tests for the escapers, as inline C (Swift's SIMD types are not vectorised on Linux). Only ByteWriters imports it.
        .target(name: "CByteScan"),
        // Bytes: the growable buffer, the HTML, JSON and logfmt writers, decimal and hex digits, the stable hash.
        // Knows nothing of HTTP, tables or cells; every module above uses it.
        .target(name: "ByteWriters", dependencies: ["CByteScan"], swiftSettings: strictSettings),
        // HTTP server over libmicrohttpd: knows nothing of tables or cells.
        .target(
            name: "MicroHTTP",
            dependencies: [
                "CMicroHTTPD", "ByteWriters",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Cells, reuse, providers and table controllers: knows nothing of HTTP.
        .target(name: "TableKit", dependencies: ["ByteWriters"], swiftSettings: strictSettings),
        // The glue: table controllers mounted on routes, formats, paging, streaming, metrics.
        .target(
            name: "Cellar",
            dependencies: [
                "ByteWriters", "TableKit", "MicroHTTP", "COpenSSL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The site's app.css (its parts), app.js and favicon.svg, as byte arrays in the binary (SiteAssets).
            resources: [.embedInCode("Site/Assets")],
            swiftSettings: strictSettings
        ),
        // Read-only SQLite (connections, statements, deadlines, the pool, the schema) and PostgreSQL connections; knows nothing of HTTP.
        .target(
            name: "CellarDatabase",
            dependencies: [
                "CSQLite", "CLibPQ", "ByteWriters", "TableKit", "MicroHTTP", "Cellar", .product(name: "Yams", package: "Yams"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),
        // The lists the server ships with: an app, on Cellar's and TableKit's public API.
        .target(name: "Showcase", dependencies: ["Cellar", "CellarDatabase", "TableKit"], swiftSettings: strictSettings),
        // The showcase server: `App.run` with the showcase's lists.
        .executableTarget(name: "cellar", dependencies: ["Showcase", "Cellar", "CellarDatabase"], swiftSettings: strictSettings),
        // An app that starts threads of its own before `App.run`, for the signal tests (CellarTests spawn it).
        .executableTarget(
            name: "cellar-test-app", dependencies: ["Cellar", "TableKit"], path: "Tests/TestApp", swiftSettings: strictSettings),
        // A raw-socket HTTP client for the test suites (no URL normalisation, so hostile paths arrive as written).
        .target(name: "HTTPTestSupport", path: "Tests/HTTPTestSupport", swiftSettings: strictSettings),
        .testTarget(name: "ByteWritersTests", dependencies: ["ByteWriters"], swiftSettings: strictSettings),
        // The golden page and the parser script are read by path (#filePath), not built as resources.
        .testTarget(
            name: "TableKitTests", dependencies: ["TableKit"], exclude: ["parse_html.py", "Golden"], swiftSettings: strictSettings),
        .testTarget(
            name: "CellarDatabaseTests",
            dependencies: [
                "CellarDatabase", "Cellar", "MicroHTTP", "TableKit", "HTTPTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "HTTPTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "CellarTests",
            dependencies: ["Cellar", "Showcase", "HTTPTestSupport"],
            swiftSettings: strictSettings
        ),
    ]
)
