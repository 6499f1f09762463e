// swift-tools-version: 6.2
import PackageDescription

// Two small apps that depend on PonyExpress as users' apps do, one in each language mode, each making every
// registration shape README shows. CI builds them in debug and in release and runs them (`.ci/language-modes`): a
// release build once crashed the compiler where debug builds passed.
let package = Package(
    name: "LanguageModes",
    dependencies: [.package(name: "PonyExpress", path: "../..", traits: [])],
    targets: [
        .executableTarget(
            name: "Swift5App", dependencies: [.product(name: "PonyExpress", package: "PonyExpress")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "Swift6App", dependencies: [.product(name: "PonyExpress", package: "PonyExpress")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
