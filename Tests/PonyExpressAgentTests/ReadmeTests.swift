import Foundation
import PonyExpress
import PonyExpressAgent
import PonyTestSupport
import Testing

/// The README's ponytop section opens with code that compiles and runs, and so does the module article's: these
/// tests hold them (both start an agent for the default post office, at the same socket path: one at a time).
@Suite("the README's agent example", .serialized, .tags(.concurrency))
struct ReadmeTests {
    @Test func theExampleCodeRuns() throws {
        // README begin
        let agent = try MonitorAgent.start(watching: .default)  // keep it; agent.stop() (or releasing it) stops it
        // README end
        #expect(access(agent.socketPath, F_OK) == 0)
        agent.stop()
        #expect(access(agent.socketPath, F_OK) != 0)

        // DocumentedCodeTests holds the README to this code; this keeps the example at the top of its section.
        let readme = try String(
            contentsOf: DocumentedCode.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## ponytop\n"))
        #expect(readme[section.upperBound...].prefix(600).contains("MonitorAgent.start"))
    }

    @Test("the module article's example: start, then stop")
    func theArticleExampleRuns() throws {
        // README begin
        let agent = try MonitorAgent.start(watching: .default)
        // ... your app runs; `ponytop --attach <pid>` shows its mail types, recipients and findings ...
        agent.stop()  // also when `agent` is released
        // README end
        #expect(access(agent.socketPath, F_OK) != 0)
    }

    @Test("releasing the agent stops it, as the example's comment says: its socket goes and no viewer gets in")
    func releasingTheAgentStopsIt() throws {
        let directory = temporaryRuntimeDirectory()
        var agent: MonitorAgent? = try MonitorAgent.start(watching: PostOffice(), runtimeDirectory: directory)
        let socketPath = try #require(agent?.socketPath)
        #expect(access(socketPath, F_OK) == 0)
        agent = nil
        #expect(access(socketPath, F_OK) != 0, "the socket outlived its agent")
        #expect(throws: (any Error).self) {
            try AgentClient.connect(to: .pid(getpid()), directory: RuntimeDirectory(path: directory))
        }
    }
}
