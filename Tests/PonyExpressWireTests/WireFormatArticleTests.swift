import Foundation
import PonyExpressWire
import PonyTestSupport
import Testing

/// The WireFormat article names the protocol's current version and lists what each version added: these tests hold
/// both to ``WireVersion``, so that a new minor version cannot ship without its line in the article.
@Suite struct WireFormatArticleTests {
    static let article = "Sources/PonyExpressAgent/PonyExpressAgent.docc/WireFormat.md"

    static func lines() throws -> [Substring] {
        let text = try String(
            contentsOf: DocumentedCode.root.appendingPathComponent(article), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Whether `text` is a version such as `1.9`: two numbers and a dot.
    static func isVersion(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    @Test("the article names the code's version as the current one")
    func currentVersion() throws {
        let marker = "The protocol is now **"
        let named = try Self.lines().compactMap { line -> String? in
            guard let start = line.range(of: marker)?.upperBound else { return nil }
            return String(line[start...].prefix { $0 != "*" })
        }
        #expect(
            named == [WireVersion.current],
            """
            \(Self.article) should say "The protocol is now **\(WireVersion.current)**" once (WireVersion.current); \
            it names \(named)
            """)
    }

    @Test("the article's table of versions has a row for every minor version up to the current one")
    func everyVersionHasARow() throws {
        let rows = Set(
            try Self.lines().compactMap { line -> String? in
                let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                guard line.hasPrefix("|"), cells.count > 2 else { return nil }
                let first = cells[1].trimmingCharacters(in: .whitespaces)
                return Self.isVersion(Substring(first)) ? first : nil
            })
        #expect(!rows.isEmpty, "\(Self.article) has no table of versions (rows such as \"| 1.0 | ... |\")")
        for minor in 0...WireVersion.minor {
            let version = "\(WireVersion.major).\(minor)"
            #expect(
                rows.contains(version),
                """
                \(Self.article) has no row for \(version) in its table of versions: add "| \(version) | ... |" \
                saying what it added, as WireVersion's comment does
                """)
        }
    }
}
