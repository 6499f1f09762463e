import PonyExpress
import PonyExpressMonitor
import PonyExpressRelay
import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The relay's documented example (its DocC page's overview, held verbatim: `DocumentedCodeTests`) compiles always, and
/// runs against a throwaway cluster where PostgreSQL is installed.
@Suite(.blocksItsThread, .serialized)
struct ReadmeTests {
    /// The example, as written.
    static func example(databaseURL: String, monitor: PostOfficeMonitor) throws -> PostgresRelay {
        // README begin
        var configuration = try RelayConfiguration(url: databaseURL)
        configuration.authentication = .key(try RelayKey.fromEnvironment())  // PONYEXPRESS_RELAY_KEY, base64
        let relay = try PostgresRelay.start(office: .default, configuration: configuration)
        try relay.share(CacheInvalidated.self)  // elsewhere it arrives with a RemoteSender as its sender
        monitor.watch(relay)  // sent, received, dropped, lag per type: snapshots, ponytop, report, metrics
        // README end
        return relay
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
        setenv(RelayKey.environmentVariable, "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio=", 1)
        defer { unsetenv(RelayKey.environmentVariable) }
        let relay = try Self.example(databaseURL: cluster.url, monitor: monitor)
        defer { relay.stop() }
        #expect(waitUntil(timeout: 15) { relay.statistics.isConnected })
        PostOffice.default.post(CacheInvalidated(key: "readme"))
        #expect(waitUntil(timeout: 10) { relay.figures(of: CacheInvalidated.self)?.sent == 1 })
        #expect(monitor.snapshot().stats(of: TypeIdentity(CacheInvalidated.self))?.relay?.sent == 1)
    }
}
