// swift-tools-version:6.0
// A third-party HTTP adapter for Strata: copyparty (a Python file server, `pip install copyparty`)
// through its own HTTP/JSON API, not its WebDAV. The adapter (CopypartyAdapter, written against
// ProviderAPI, ProviderKit and HTTPProviderKit only), its conformance test against a live
// copyparty, and its own `strata` (copyparty-strata: the StrataCLI library with the adapter added).
import PackageDescription

let package = Package(
    name: "CopypartyAdapter",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "CopypartyAdapter", targets: ["CopypartyAdapter"]),
        .executable(name: "copyparty-strata", targets: ["copyparty-strata"]),
    ],
    dependencies: [
        // A real adapter names Strata by its URL and a version; the example builds against this checkout.
        .package(name: "Strata", path: "../.."),
        // NIOCore and NIOHTTP1 for the request and response types of HTTPProviderKit (ByteBuffer, HTTPHeaders).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    ],
    targets: [
        .target(
            name: "CopypartyAdapter",
            dependencies: [
                .product(name: "ProviderAPI", package: "Strata"),
                .product(name: "ProviderKit", package: "Strata"),
                .product(name: "HTTPProviderKit", package: "Strata"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "copyparty-strata",
            dependencies: ["CopypartyAdapter", .product(name: "StrataCLI", package: "Strata")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "CopypartyAdapterTests",
            dependencies: [
                "CopypartyAdapter",
                .product(name: "ProviderAPI", package: "Strata"),
                .product(name: "HTTPProviderKit", package: "Strata"),
                .product(name: "ProviderConformance", package: "Strata"),
                .product(name: "ProviderConformanceTesting", package: "Strata"),
                .product(name: "SharedCacheConformance", package: "Strata"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
