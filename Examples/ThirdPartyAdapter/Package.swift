// swift-tools-version:6.0
// A third-party adapter for Strata, as a company would ship one: the adapter (MemoryAdapter,
// written against ProviderAPI and ProviderKit only), its conformance test, and its own `strata`
// (memory-strata: the StrataCLI library with the adapter added).
import PackageDescription

let package = Package(
    name: "ThirdPartyAdapter",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "MemoryAdapter", targets: ["MemoryAdapter"]),
        .executable(name: "memory-strata", targets: ["memory-strata"]),
    ],
    dependencies: [
        // A real adapter names Strata by its URL and a version; the example builds against this checkout.
        .package(name: "Strata", path: "../.."),
        // NIOConcurrencyHelpers, for the lock of the factory's volumes (ByteBuffer comes with ProviderAPI).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    ],
    targets: [
        .target(
            name: "MemoryAdapter",
            dependencies: [
                .product(name: "ProviderAPI", package: "Strata"),
                .product(name: "ProviderKit", package: "Strata"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "memory-strata",
            dependencies: ["MemoryAdapter", .product(name: "StrataCLI", package: "Strata")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "MemoryAdapterTests",
            dependencies: [
                "MemoryAdapter",
                .product(name: "ProviderAPI", package: "Strata"),
                .product(name: "ProviderConformance", package: "Strata"),
                .product(name: "ProviderConformanceTesting", package: "Strata"),
                .product(name: "SharedCacheConformance", package: "Strata"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
