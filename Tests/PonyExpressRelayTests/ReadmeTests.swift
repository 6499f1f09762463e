import Foundation
import PonyExpress
import PonyExpressMonitor
import PonyExpressRelay
import PonyTestSupport
import Testing

/// The README's relay example compiles (always) and runs against a throwaway cluster (where PostgreSQL is installed).
@Suite(.serialized)
struct ReadmeTests {
    /// The README's example, as written.
    static func example(databaseURL: String, monitor: PostOfficeMonitor) throws -> PostgresRelay {
        // README begin
        let relay = try PostgresRelay.start(office: .default, configuration: RelayConfiguration(url: databaseURL))
        try relay.share(CacheInvalidated.self)  // elsewhere it arrives with a RemoteSender as its sender
        monitor.watch(relay)  // sent, received, dropped, lag per type: snapshots, ponytop, report, metrics
        // README end
        return relay
    }

    @Test func theReadmeShowsTheExampleThisTestRuns() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let begin = try #require(source.range(of: "// README begin\n"))
        let end = try #require(source.range(of: "        // README end"))
        let code = source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.dropFirst(8) }.joined(separator: "\n")
        let example = "```swift\n" + code + "```"
        #expect(readme.contains(example), "README lacks:\n\(example)")
    }

    @Test(
        .enabled(
            if: PostgresCluster.unavailableReason == nil, Comment(rawValue: PostgresCluster.unavailableReason ?? "")))
    func theExampleRelaysMailAndTheMonitorSeesIt() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let monitor = PostOfficeMonitor()
        monitor.attach(to: .default)
        defer { monitor.detach() }
        let relay = try Self.example(databaseURL: cluster.url, monitor: monitor)
        defer { relay.stop() }
        #expect(waitUntil(timeout: 15) { relay.statistics.isConnected })
        PostOffice.default.post(CacheInvalidated(key: "readme"))
        #expect(waitUntil(timeout: 10) { relay.figures(of: CacheInvalidated.self)?.sent == 1 })
        #expect(monitor.snapshot().stats(of: TypeIdentity(CacheInvalidated.self))?.relay?.sent == 1)
    }
}
