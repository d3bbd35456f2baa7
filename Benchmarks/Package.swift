// swift-tools-version:6.1
// In-process render benchmarks (ordo-one/benchmark): nanoseconds and mallocs per row for class
// cells, prototype cells and JSON. A package of its own so that the server's builds and CI's test
// runs do not pay for the benchmark tooling. Run with `make bench` or
// `swift package --package-path Benchmarks benchmark`.
import Foundation
import PackageDescription

// A path dependency is named after its folder, which is whatever the clone is called.
let cellarPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "CellarBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "RenderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TableKit", package: cellarPackage),
                .product(name: "Cellar", package: cellarPackage),
                .product(name: "MicroHTTP", package: cellarPackage),
                .product(name: "Showcase", package: cellarPackage),
            ],
            path: "Benchmarks/RenderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Fixed work for callgrind: repeatable instruction counts of the hot path.
        .executableTarget(
            name: "RenderProfile",
            dependencies: [
                .product(name: "Cellar", package: cellarPackage),
                .product(name: "MicroHTTP", package: cellarPackage),
                .product(name: "Showcase", package: cellarPackage),
            ],
            path: "Sources/RenderProfile"
        ),
        // The live lists' fan-out benchmark's server (tools/fanout.py).
        .executableTarget(
            name: "LiveFanout",
            dependencies: [
                .product(name: "Cellar", package: cellarPackage),
                .product(name: "MicroHTTP", package: cellarPackage),
                .product(name: "TableKit", package: cellarPackage),
            ],
            path: "Sources/LiveFanout"
        ),
    ]
)
