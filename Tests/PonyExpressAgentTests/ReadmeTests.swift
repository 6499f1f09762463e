import Foundation
import PonyExpress
import PonyExpressAgent
import Testing

/// The README's ponytop section opens with code that compiles and runs: this test holds it.
@Suite("the README's agent example")
struct ReadmeTests {
    @Test func theExampleCodeRuns() throws {
        // README begin
        let agent = try MonitorAgent.start(watching: .default)  // keep it; agent.stop() (or releasing it) stops it
        // README end
        #expect(access(agent.socketPath, F_OK) == 0)
        agent.stop()
        #expect(access(agent.socketPath, F_OK) != 0)

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let begin = try #require(source.range(of: "// README begin\n"))
        let end = try #require(source.range(of: "        // README end"))
        let code = source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { "   " + $0.dropFirst(8) }.joined(separator: "\n")
        let example = "   ```swift\n   import PonyExpress\n   import PonyExpressAgent\n\n" + code + "```"
        #expect(readme.contains(example), "README's ponytop section lacks:\n\(example)")
        let section = try #require(readme.range(of: "## ponytop\n"))
        #expect(readme[section.upperBound...].prefix(600).contains("MonitorAgent.start"))
    }
}
