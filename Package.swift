// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "PonyExpress",
    products: [
        .library(name: "PonyExpress", targets: ["PonyExpress"]),
        .library(name: "PonyExpressMonitor", targets: ["PonyExpressMonitor"]),
        .library(name: "PonyScenarios", targets: ["PonyScenarios"]),
        .library(name: "PonyExpressAgent", targets: ["PonyExpressAgent"]),
        .library(name: "PonyExpressMetrics", targets: ["PonyExpressMetrics"]),
        .library(name: "PonyExpressFoundation", targets: ["PonyExpressFoundation"]),
        .library(name: "PonyExpressRelay", targets: ["PonyExpressRelay"]),
        .library(name: "PonyExpressHummingbird", targets: ["PonyExpressHummingbird"]),
        .executable(name: "ponytop", targets: ["ponytop"]),
        .executable(name: "ponybench", targets: ["ponybench"]),
        .executable(name: "ponydemo", targets: ["ponydemo"]),
    ],
    // What an app that depends on PonyExpress resolves: a trait-gated package is left out of its resolution when the
    // trait is off. The root package has all three on, so `swift run ponytop` and `swift test` build everything; an
    // app that wants none writes `traits: []` on its `.package` line and never fetches postgres-nio, swift-prometheus
    // or Hummingbird (README, "Depending on PonyExpress").
    traits: [
        .trait(name: "Relay", description: "PonyExpressRelay, shared mail through PostgreSQL (postgres-nio)."),
        .trait(name: "Prometheus", description: "ponydemo's and ponybench's Prometheus endpoint (swift-prometheus)."),
        .trait(name: "Hummingbird", description: "PonyExpressHummingbird, a mail scope per request (Hummingbird 2)."),
        .default(enabledTraits: ["Relay", "Prometheus", "Hummingbird"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // HMAC-SHA256 for the relay's signed envelopes; already in the graph through postgres-nio.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // Without its default traits: no swift-configuration, and Foundation's essentials only.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        // The post office: Mail, PostOffice, RecipientId and the delivery tap. Standard library, Dispatch and
        // Synchronization only.
        .target(name: "PonyExpress"),
        // Statistics, latency histograms and findings built from the delivery tap.
        .target(
            name: "PonyExpressMonitor",
            dependencies: [
                "PonyExpress",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ]
        ),
        // The embedded load generator and its scenario file format.
        // A JSON reader for hand-written files (scenarios, ponytop's config): positions, comments, one-line problems.
        .target(name: "PonyJSON"),
        .target(name: "PonyScenarios", dependencies: ["PonyExpress", "PonyJSON"]),
        // The wire format between an agent and ponytop: frames, their compact binary encoding (frames and small
        // values through Codable, the snapshot's rows by hand), recordings.
        // No networking here, so that the fuzzer and the recording reader build without NIO.
        .target(name: "PonyExpressWire", dependencies: ["PonyExpress", "PonyExpressMonitor"]),
        // The in-app agent ponytop attaches to (Unix domain socket, optional TCP) and the viewer's client for it.
        // The only library module with SwiftNIO.
        .target(
            name: "PonyExpressAgent",
            dependencies: [
                "PonyExpress",
                "PonyExpressMonitor",
                "PonyExpressWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The monitor's figures through swift-metrics, for whichever backend the app bootstraps (no Prometheus here).
        .target(
            name: "PonyExpressMetrics",
            dependencies: [
                "PonyExpress",
                "PonyExpressMonitor",
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The bridge between NotificationCenter and a post office, for apps that migrate: Foundation stays out of
        // the core.
        .target(name: "PonyExpressFoundation", dependencies: ["PonyExpress"]),
        // Shared mail across processes through PostgreSQL's LISTEN/NOTIFY. The only module with postgres-nio.
        .target(
            name: "PonyExpressRelay",
            dependencies: [
                "PonyExpress",
                "PonyExpressMonitor",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Relay"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Relay"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // A mail scope per HTTP request for Hummingbird 2 apps, named by the route. The only module with Hummingbird.
        .target(
            name: "PonyExpressHummingbird",
            dependencies: [
                "PonyExpress",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
        // What ponytop's screen and its report both show of a snapshot: the site and prune group rows, their words and
        // keys, the tables' default orders and the findings' ranking. Neither the screen nor the report: each of
        // those knows this stage, never the other.
        .target(name: "PonyTopModel", dependencies: ["PonyExpress", "PonyExpressMonitor"]),
        // App state, key map, layout and panes drawn into an in-memory grid. No terminal, no C.
        .target(
            name: "PonyTopUI",
            dependencies: ["PonyExpress", "PonyExpressMonitor", "PonyJSON", "PonyTopModel"]
        ),
        // ponytop's report of a run (text, JSON, SARIF): versioned schema types built from a monitor snapshot and
        // the model's rows, in the model's default orders (the panes' too). It never sees the screen.
        .target(
            name: "PonyTopReport",
            dependencies: ["PonyExpress", "PonyExpressMonitor", "PonyTopModel"]
        ),
        // ncurses through its module map (`link "ncursesw"`) and shim header, not pkg-config: SwiftPM reads a system
        // library's pkg-config flags for every package in the graph, and warns about ncursesw's -D flags in every
        // build of an app that depends on PonyExpress, though it never builds ponytop. Debian's libncursesw5-dev.
        .systemLibrary(name: "CNcurses"),
        .executableTarget(
            name: "ponytop",
            dependencies: [
                "PonyExpress",
                "PonyExpressMonitor",
                "PonyScenarios",
                "PonyTopModel",
                "PonyTopUI",
                "PonyTopReport",
                "PonyExpressWire",
                "PonyExpressAgent",
                "CNcurses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A demo app in its own process: a scenario with the agent started, to try `ponytop --attach` on.
        .executableTarget(
            name: "ponydemo",
            dependencies: [
                "PonyExpress",
                "PonyExpressMonitor",
                "PonyScenarios",
                "PonyExpressAgent",
                "PonyExpressMetrics",
                "PonyExpressFoundation",
                "PonyExpressRelay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Prometheus"])),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The soak's measure of memory: the C allocator's bytes in use (glibc's mallinfo2), which Swift cannot import.
        .target(name: "CHeapStats"),
        .executableTarget(
            name: "ponybench",
            dependencies: [
                "CHeapStats",
                "PonyExpress",
                "PonyExpressMonitor",
                "PonyScenarios",
                "PonyExpressWire",
                "PonyExpressAgent",
                "PonyExpressMetrics",
                // Without the traits (`--disable-default-traits`), ponybench is the soak and the in-process benches
                // only: CI's soak builds it so, in release, without postgres-nio and swift-prometheus.
                .target(name: "PonyExpressRelay", condition: .when(traits: ["Relay"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Prometheus"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Relay"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Reliability: a post office leaked on purpose (or not), to prove that LeakSanitizer sees such leaks.
        .executableTarget(name: "LeakProbe", dependencies: ["PonyExpress"]),
        // Reliability: the scenario parser under libFuzzer (built with -DPONY_FUZZING), or a replayer of inputs.
        .executableTarget(name: "PonyScenarioFuzz", dependencies: ["PonyScenarios", "PonyFuzzInput"]),
        // Reliability: the wire decoder (frames, hello, snapshots, requests) under libFuzzer, or a replayer.
        .executableTarget(
            name: "PonyWireFuzz",
            dependencies: ["PonyExpress", "PonyExpressMonitor", "PonyExpressWire", "PonyFuzzInput"]),
        // Reliability: what both fuzz targets do without libFuzzer, replay input files through their check.
        .target(name: "PonyFuzzInput"),
        // Shared test seams: manual clock, recording tap, deadlines, tmux driver.
        .target(
            name: "PonyTestSupport",
            dependencies: ["PonyExpress"],
            path: "Tests/PonyTestSupport"
        ),
        .testTarget(name: "PonyExpressTests", dependencies: ["PonyExpress", "PonyTestSupport"]),
        .testTarget(
            name: "PonyExpressMonitorTests",
            dependencies: ["CHeapStats", "PonyExpress", "PonyExpressMonitor", "PonyScenarios", "PonyTestSupport"]
        ),
        .testTarget(name: "PonyScenariosTests", dependencies: ["PonyExpress", "PonyScenarios", "PonyTestSupport"]),
        .testTarget(
            name: "PonyTopUITests",
            dependencies: [
                "PonyExpress", "PonyExpressMonitor", "PonyJSON", "PonyScenarios", "PonyTopModel", "PonyTopUI",
                "PonyTopReport",
                "PonyTestSupport",
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "PonyTopReportTests",
            dependencies: ["PonyExpress", "PonyExpressMonitor", "PonyTopModel", "PonyTopReport", "PonyTestSupport"]
        ),
        .testTarget(
            name: "PonyTopTests", dependencies: ["PonyExpressMonitor", "PonyExpressWire", "PonyTestSupport"]),
        .testTarget(
            name: "PonyExpressAgentTests",
            dependencies: [
                "PonyExpress", "PonyExpressMonitor", "PonyScenarios", "PonyExpressWire", "PonyExpressAgent",
                "PonyTestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "PonyExpressWireTests",
            dependencies: ["PonyExpress", "PonyExpressMonitor", "PonyExpressWire", "PonyTestSupport"]
        ),
        .testTarget(
            name: "PonyExpressRelayTests",
            dependencies: [
                "PonyExpress", "PonyExpressMonitor", "PonyExpressRelay", "PonyTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PonyExpressMetricsTests",
            dependencies: [
                "PonyExpress", "PonyExpressMonitor", "PonyExpressMetrics", "PonyTestSupport",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Prometheus"])),
            ]
        ),
        .testTarget(
            name: "PonyExpressHummingbirdTests",
            dependencies: [
                "PonyExpress", "PonyExpressMonitor", "PonyExpressHummingbird", "PonyTestSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "PonyExpressFoundationTests",
            dependencies: ["PonyExpress", "PonyExpressFoundation", "PonyTestSupport"]
        ),
    ]
)

// Any warning in the package's own code is an error, in every build of it (CI's strict build and the README's
// `swift test` share one build this way). SwiftPM drops these settings for an app that depends on PonyExpress.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
}

// CI's sanitizer passes (.ci/run) set PONY_SANITIZE to `thread` or `address`: the package's own code is built with that
// sanitizer in the debug build's own folder, where the dependencies stay as the debug build compiled them, so that
// each sanitizer pass compiles the package's modules again and no dependency (SwiftNIO, postgres-nio, BoringSSL
// twice). Unset, as everywhere else, the manifest has no unsafe flag.
if let sanitizer = Context.environment["PONY_SANITIZE"], ["thread", "address"].contains(sanitizer) {
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)"])]
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=\(sanitizer)"])]
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)"])]
    }
}
