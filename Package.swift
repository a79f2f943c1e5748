// swift-tools-version:6.2
import PackageDescription

// Every target of ours: `any` spelled out, and a warning fails the build (SwiftPM applies warning
// settings to the root package only, so a package that depends on Strata is not failed by a
// newer compiler's new warning).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "Strata",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "ProviderAPI", targets: ["ProviderAPI"]),
        .library(name: "ProviderKit", targets: ["ProviderKit"]),
        .library(name: "HTTPProviderKit", targets: ["HTTPProviderKit"]),
        .library(name: "ProviderTesting", targets: ["ProviderTesting"]),
        .library(name: "WebDAVProvider", targets: ["WebDAVProvider"]),
        .library(name: "NuxeoProvider", targets: ["NuxeoProvider"]),
        .library(name: "PydioProvider", targets: ["PydioProvider"]),
        .library(name: "LocalProvider", targets: ["LocalProvider"]),
        .library(name: "ProviderConformance", targets: ["ProviderConformance"]),
        .library(name: "ProviderConformanceTesting", targets: ["ProviderConformanceTesting"]),
        .library(name: "SharedCacheConformance", targets: ["SharedCacheConformance"]),
        .library(name: "SharedCache", targets: ["SharedCache"]),
        .library(name: "TransferEngine", targets: ["TransferEngine"]),
        .library(name: "StrataCLI", targets: ["StrataCLI"]),
        .executable(name: "strata", targets: ["strata"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // ServiceGroup, to stop the loopback test servers gracefully (Hummingbird's own dependency).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // `swift package generate-documentation` (scripts/docs); a plugin, linked into no product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "ProviderAPI",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/ProviderAPI",
            swiftSettings: strictSettings
        ),
        // `openat2` and the file system's case-folding flags for ProviderKit's LocalFolder (system
        // calls Swift cannot reach by itself).
        // And the Secret Service through libsecret, loaded at run time with dlopen (no header or
        // library of it at build time; `dl` for glibc before 2.34, where dlopen was not in libc).
        .target(
            name: "CProviderKitShims", path: "Sources/CProviderKitShims",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "ProviderKit",
            dependencies: [
                "ProviderAPI", "CProviderKitShims",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/ProviderKit",
            swiftSettings: strictSettings
        ),
        .target(
            name: "HTTPProviderKit",
            dependencies: [
                "ProviderAPI",
                "ProviderKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/HTTPProviderKit",
            swiftSettings: strictSettings
        ),
        .target(
            name: "ProviderTesting",
            dependencies: [
                "ProviderAPI",
                "HTTPProviderKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Sources/ProviderTesting",
            swiftSettings: strictSettings
        ),
        .target(
            name: "WebDAVProvider",
            dependencies: [ .product(name: "Crypto", package: "swift-crypto"), "ProviderKit", "HTTPProviderKit",
                "ProviderAPI",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Providers/WebDAV",
            swiftSettings: strictSettings
        ),
        .target(
            name: "NuxeoProvider",
            dependencies: [ "ProviderKit", "HTTPProviderKit",
                "ProviderAPI",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Providers/Nuxeo",
            swiftSettings: strictSettings
        ),
        .target(
            name: "PydioProvider",
            dependencies: [ "ProviderKit", "HTTPProviderKit",
                "ProviderAPI",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Providers/Pydio",
            swiftSettings: strictSettings
        ),
        .target(
            name: "LocalProvider",
            dependencies: ["ProviderAPI", "ProviderKit"],
            path: "Sources/LocalProvider",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LocalProviderTests",
            dependencies: [
                "LocalProvider", "ProviderAPI", "ProviderKit", "ProviderConformance", "ProviderConformanceTesting", "SharedCacheConformance",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/LocalProviderTests",
            swiftSettings: strictSettings
        ),
        .target(
            name: "SharedCache",
            dependencies: [ "ProviderKit", "TransferEngine",
                "ProviderAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/SharedCache",
            swiftSettings: strictSettings
        ),
        .target(
            name: "TransferEngine",
            dependencies: [
                "ProviderAPI", "ProviderKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/TransferEngine",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TransferEngineTests",
            dependencies: [ .product(name: "Logging", package: "swift-log"), "StrataTestSupport",
                "TransferEngine", "ProviderAPI", "LocalProvider", "ProviderConformance", "ProviderTesting", "HTTPProviderKit",
                "WebDAVProvider", "strata", "StrataProcessKit", "SharedCache",
                "ProviderKit", "NuxeoProvider", "PydioProvider", "NuxeoTestServer", "PydioTestServer", "NextcloudTestServer",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/TransferEngineTests",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "strata-cache-torture",
            dependencies: ["SharedCache", "ProviderAPI", "WebDAVProvider"],
            path: "Tests/strata-cache-torture",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SharedCacheTests",
            dependencies: [ "ProviderKit", "NextcloudTestServer", "StrataProcessKit",
                "SharedCache", "TransferEngine", "ProviderAPI", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/SharedCacheTests",
            swiftSettings: strictSettings
        ),
        .target(
            name: "ProviderConformance",
            dependencies: [ "ProviderKit", "HTTPProviderKit", "ProviderTesting",
                "ProviderAPI",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Conformance/ProviderConformance",
            swiftSettings: strictSettings
        ),
        .target(
            name: "SharedCacheConformance",
            dependencies: ["ProviderConformance", "SharedCache", "ProviderAPI", "ProviderTesting"],
            path: "Conformance/SharedCacheConformance",
            swiftSettings: strictSettings
        ),
        .target(
            name: "ProviderConformanceTesting",
            dependencies: ["ProviderConformance"],
            path: "Conformance/ProviderConformanceTesting",
            swiftSettings: strictSettings
        ),
        .target(
            name: "StrataCLI",
            dependencies: [ "ProviderKit", "HTTPProviderKit",
                "ProviderAPI",
                "WebDAVProvider",
                "NuxeoProvider",
                "PydioProvider",
                "LocalProvider",
                "SharedCache",
                "TransferEngine",
                "ProviderConformance",
                "SharedCacheConformance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/StrataCLI",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "strata",
            dependencies: ["StrataCLI"],
            path: "Sources/strata",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "strata-bench",
            dependencies: [ "ProviderKit", "HTTPProviderKit",
                "ProviderAPI",
                "WebDAVProvider",
                "NuxeoProvider",
                "PydioProvider",
                "SharedCache",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/strata-bench",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ProviderAPITests",
            dependencies: [ .product(name: "Logging", package: "swift-log"), "StrataTestSupport", "StrataProcessKit", "ProviderKit", "HTTPProviderKit", "ProviderTesting",
                "ProviderAPI", "ProviderConformance", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tests/ProviderAPITests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ProviderConformanceTests",
            dependencies: ["ProviderConformance", "ProviderConformanceTesting", "SharedCacheConformance", "ProviderAPI", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio")],
            path: "Tests/ProviderConformanceTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NuxeoProviderTests",
            dependencies: [ "StrataTestSupport", "ProviderKit", "HTTPProviderKit", "ProviderTesting",
                "NuxeoProvider", "NuxeoTestServer", "ProviderAPI", "ProviderConformance", "ProviderConformanceTesting", "SharedCacheConformance",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/NuxeoProviderTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PydioProviderTests",
            dependencies: [ .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "StrataTestSupport", "ProviderKit", "HTTPProviderKit", "ProviderTesting",
                "PydioProvider", "PydioTestServer", "ProviderAPI", "ProviderConformance", "ProviderConformanceTesting", "SharedCacheConformance", "strata", "StrataProcessKit",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/PydioProviderTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CachedProviderTests",
            dependencies: [ .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "StrataTestSupport", "HTTPProviderKit", "ProviderTesting","SharedCache", "TransferEngine", "ProviderConformance", "ProviderAPI"],
            path: "Tests/CachedProviderTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StrataCLITests",
            dependencies: [ .product(name: "Logging", package: "swift-log"), "SharedCache", "TransferEngine", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "StrataTestSupport", "HTTPProviderKit", "strata", "StrataCLI", "ProviderAPI", "StrataProcessKit", "ProviderConformance", "SharedCacheConformance", .product(name: "NIOCore", package: "swift-nio")],
            path: "Tests/StrataCLITests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebDAVProviderTests",
            dependencies: [ "StrataTestSupport", "ProviderKit", "HTTPProviderKit", "ProviderTesting", "WebDAVProvider", "ProviderConformance", "ProviderConformanceTesting", "SharedCacheConformance", "ProviderAPI", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            path: "Tests/WebDAVProviderTests",
            swiftSettings: strictSettings
        ),
        .target(
            name: "LoopbackServerKit",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/Servers/LoopbackServerKit",
            swiftSettings: strictSettings
        ),
        .target(
            name: "NuxeoTestServer",
            dependencies: [
                "LoopbackServerKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Servers/NuxeoTestServer",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "strata-nuxeo-server",
            dependencies: [
                "LoopbackServerKit",
                "NuxeoTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/Servers/strata-nuxeo-server",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NuxeoTestServerTests",
            dependencies: [
                "NuxeoTestServer", "StrataTestSupport",
                "ProviderAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/NuxeoTestServerTests",
            swiftSettings: strictSettings
        ),
        .target(
            name: "PydioTestServer",
            dependencies: [
                "LoopbackServerKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Servers/PydioTestServer",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "strata-pydio-server",
            dependencies: [
                "LoopbackServerKit",
                "PydioTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/Servers/strata-pydio-server",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PydioTestServerTests",
            dependencies: [
                "PydioTestServer", "StrataTestSupport",
                "ProviderAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/PydioTestServerTests",
            swiftSettings: strictSettings
        ),
        .target(
            name: "NextcloudTestServer",
            dependencies: [ "ProviderKit", "HTTPProviderKit",
                "LoopbackServerKit",
                "ProviderAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/Servers/NextcloudTestServer",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "strata-nextcloud-server",
            dependencies: [
                "NextcloudTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/Servers/strata-nextcloud-server",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NextcloudTestServerTests",
            dependencies: [ "HTTPProviderKit", "StrataTestSupport",
                "NextcloudTestServer",
                "ProviderAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/NextcloudTestServerTests",
            swiftSettings: strictSettings
        ),
        .target(
            name: "HostileTestServer",
            dependencies: [
                "LoopbackServerKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/Servers/HostileTestServer",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HostileServerTests",
            dependencies: [ "ProviderKit", "HTTPProviderKit", "StrataTestSupport",
                "HostileTestServer", "WebDAVProvider", "NuxeoProvider", "PydioProvider", "ProviderAPI", "strata", "StrataProcessKit",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/HostileServerTests",
            swiftSettings: strictSettings
        ),
        .target(
            name: "StrataTestSupport",
            dependencies: ["ProviderAPI", "HTTPProviderKit", "ProviderTesting"],
            path: "Tests/Support/StrataTestSupport",
            swiftSettings: strictSettings
        ),
        .target(
            name: "StrataProcessKit",
            dependencies: [.product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            path: "Tests/Support/StrataProcessKit",
            swiftSettings: strictSettings
        ),
        .target(
            name: "StrataFuzzTargets",
            dependencies: [ "HTTPProviderKit",
                "ProviderAPI", "WebDAVProvider", "NuxeoProvider", "PydioProvider",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Fuzz/StrataFuzzTargets",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "strata-fuzz",
            dependencies: ["StrataFuzzTargets"],
            path: "Fuzz/strata-fuzz",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: [ "HTTPProviderKit","StrataFuzzTargets", "ProviderAPI", "StrataTestSupport"],
            path: "Tests/FuzzRegressionTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NextcloudProviderTests",
            dependencies: [ "StrataTestSupport", "ProviderKit", "HTTPProviderKit", "ProviderTesting",
                "WebDAVProvider", "NextcloudTestServer", "ProviderAPI", "ProviderConformance", "ProviderConformanceTesting", "SharedCacheConformance",
                "strata", "SharedCache", "StrataProcessKit",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/NextcloudProviderTests",
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
