import Foundation
import PonyTestSupport
import Testing

/// README.md and every DocC article show only Swift that a test compiles and runs: each ```swift block is held,
/// verbatim, by `// README begin` ... `// README end` regions of a test (`DocumentedCode`). A new example joins this
/// check by being written; it passes once a test holds it.
@Suite("Documented code")
struct DocumentedCodeTests {
    @Test("every Swift example in README.md and the DocC articles is held verbatim by a test")
    func everyExampleIsHeld() throws {
        let regions = try DocumentedCode.testRegions()
        let documents = try DocumentedCode.documents()
        #expect(documents.contains("README.md"))
        #expect(documents.contains("Sources/PonyExpress/PonyExpress.docc/SignalsStyleRegistrations.md"))
        var examples = 0
        for document in documents {
            for block in try DocumentedCode.blocks("swift", in: document) {
                examples += 1
                #expect(
                    DocumentedCode.holder(of: block, in: regions) != nil,
                    """
                    \(block) is held by no test: copy it between `// README begin` and `// README end` in a test that \
                    runs it (imports left out), or make the test's code and the example the same:
                    \(block.code.joined(separator: "\n"))
                    """)
            }
        }
        #expect(examples >= 20, "the documents' Swift examples were not found")
    }

    @Test("an example that differs from its test by one line, or that no test holds, is not held")
    func aChangedExampleIsNotHeld() throws {
        let regions = try DocumentedCode.testRegions()
        let readme = try DocumentedCode.blocks("swift", in: "README.md")
        let tap = try #require(readme.first { $0.lines.contains { $0.contains("ClosureTap") } })
        #expect(DocumentedCode.holder(of: tap, in: regions) == "Tests/PonyExpressTests/ReadmeExamplesTests.swift")
        let changed = DocumentedCode.Block(
            document: tap.document, line: tap.line,
            lines: tap.lines.map { $0.replacingOccurrences(of: "default: break", with: "case .posted: break") })
        #expect(changed.lines != tap.lines)
        #expect(DocumentedCode.holder(of: changed, in: regions) == nil)
        let extra = DocumentedCode.Block(document: tap.document, line: tap.line, lines: tap.lines + ["tap.flush()"])
        #expect(DocumentedCode.holder(of: extra, in: regions) == nil)
    }

    @Test("blocks nested in a list item lose their indentation; imports and the blank line after them are left out")
    func blockShapes() throws {
        let readme = try DocumentedCode.blocks("swift", in: "README.md")
        let agent = try #require(readme.first { $0.lines.contains { $0.contains("MonitorAgent.start") } })
        #expect(agent.lines.first == "import PonyExpress")
        #expect(agent.code.first?.hasPrefix("let agent = try MonitorAgent.start") == true)
        let source = """
                // README begin
                let a = 1

                print(a)
                // README end
            """
        #expect(DocumentedCode.regions(inSource: source) == [["let a = 1", "", "print(a)"]])
    }
}
