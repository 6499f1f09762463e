import Foundation
import PonyTestSupport
import Testing

/// README's `Package.swift` lines for an app that depends on PonyExpress name products and traits that the package
/// has, and the traits gate what README says they gate. (What each costs a new app: `bash .ci/new-app-cost`.)
@Suite("Depending on PonyExpress")
struct DependingOnPonyExpressTests {
    /// README's example, verbatim: manifest code, which no test process can compile, so it is held as text.
    static let example = """
        // README begin
        .package(url: "https://github.com/OWNER/PonyExpress", from: "1.0.0", traits: []),  // your package's dependencies
        .product(name: "PonyExpress", package: "PonyExpress"),  // your target's dependencies: the core
        .product(name: "PonyExpressAgent", package: "PonyExpress"),  // the agent for ponytop --attach
        // README end
        """

    static let manifest: String = {
        (try? String(contentsOf: DocumentedCode.root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
    }()

    /// The quoted arguments after `label` in `text`: `names(after: ".library(name: ", in: manifest)`.
    static func names(after label: String, in text: String) -> [String] {
        text.components(separatedBy: label).dropFirst().compactMap { rest in
            guard rest.hasPrefix("\"") else { return nil }
            return rest.dropFirst().split(separator: "\"", maxSplits: 1).first.map(String.init)
        }
    }

    @Test("the example's products are library products of Package.swift, its traits are traits of it")
    func productsAndTraitsExist() throws {
        let products = Self.names(after: ".product(name: ", in: Self.example)
        #expect(products == ["PonyExpress", "PonyExpressAgent"])
        let libraries = Set(Self.names(after: ".library(name: ", in: Self.manifest))
        for product in products { #expect(libraries.contains(product), "no library product \(product)") }
        let traits = Set(Self.names(after: ".trait(name: ", in: Self.manifest))
        #expect(traits == ["Relay", "Prometheus", "Hummingbird"])
    }

    @Test("postgres-nio, swift-crypto, swift-prometheus and Hummingbird are used only behind their traits")
    func traitGatedPackages() {
        for (package, trait) in [
            ("postgres-nio", "Relay"), ("swift-crypto", "Relay"), ("swift-prometheus", "Prometheus"),
            ("hummingbird", "Hummingbird"),
        ] {
            let uses = Self.manifest.components(separatedBy: "\n").filter {
                $0.contains(".product(") && $0.contains("package: \"\(package)\"")
            }
            #expect(!uses.isEmpty, "\(package) is used nowhere")
            let condition = "condition: .when(traits: [\"\(trait)\"])"
            for use in uses { #expect(use.contains(condition), "\(package) used without its trait: \(use)") }
        }
    }
}
