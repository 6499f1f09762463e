import Logging
import PonyExpress
import PonyExpressAgent
import PonyExpressMonitor
import PonyTestSupport
import Testing

/// A log handler that keeps what it is given, for tests.
final class CapturedLog: Sendable {
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let records = Locked<[Record]>([])

    var all: [Record] { records.withLock { $0 } }

    func logger() -> Logger {
        Logger(label: "tests.findings") { _ in Handler(log: self) }
    }

    fileprivate func append(_ record: Record) {
        records.withLock { $0.append(record) }
    }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.append(Record(level: event.level, message: event.message.description, metadata: event.metadata ?? [:]))
        }
    }
}

/// The agent's findings reach the app's logs: a line when a finding appears, another when it stops holding or is
/// retracted, with the site and the evidence as metadata.
@Suite("findings through swift-log", .tags(.concurrency))
struct FindingLoggingTests {
    struct CartChanged: Mail {}
    struct Ping: Mail {}

    @Test("a leak logs once when it appears, with its site and evidence, and once when it is retracted")
    func leakAppearsAndIsRetracted() throws {
        let office = PostOffice()
        let clock = ManualClock()
        let monitor = PostOfficeMonitor(clock: clock)
        monitor.attach(to: office)
        defer { monitor.detach() }
        let captured = CapturedLog()
        let logger = FindingLogger(FindingLogging(logger: captured.logger()))
        var carts: [(TestRecipient, RecipientId)] = []
        for _ in 0..<25 {
            let cart = TestRecipient()
            carts.append((cart, office.register(CartChanged.self, cart, TestRecipient.receive)))
            clock.advance(seconds: 1)
            logger.record(monitor.snapshot())
        }
        let appeared = captured.all.filter { $0.metadata["finding.event"] == "appeared" }
        #expect(appeared.count == 1, "once, not at every snapshot: \(captured.all.map(\.message))")
        let line = try #require(appeared.first)
        #expect(line.level == .warning)
        #expect(line.message.hasPrefix("ponyexpress finding: TestRecipient objects registered for CartChanged"))
        #expect(line.metadata["finding.kind"] == "growingRegistrations")
        #expect(line.metadata["finding.category"] == "leak")
        #expect(
            line.metadata["finding.site"]?.description.hasPrefix("PonyExpressAgentTests/FindingLoggingTests.swift:")
                == true)
        #expect(
            line.metadata["finding.file"]?.description.hasSuffix(
                "Tests/PonyExpressAgentTests/FindingLoggingTests.swift") == true)
        guard case .dictionary(let evidence) = line.metadata["finding.evidence"] else {
            Issue.record("no evidence dictionary")
            return
        }
        #expect(evidence["live"] != nil)

        for (_, id) in carts { office.unregister(id) }
        clock.advance(seconds: 1)
        logger.record(monitor.snapshot())
        let retracted = try #require(captured.all.last)
        #expect(retracted.level == .notice)
        #expect(retracted.metadata["finding.event"] == "retracted")
        #expect(retracted.message.contains("not a leak"))
    }

    @Test("the agent's option logs a finding by itself, without a viewer")
    func agentOption() throws {
        let directory = temporaryRuntimeDirectory() + "/ponytop"
        let office = PostOffice()
        var settings = MonitorSettings()
        settings.oversubscriptionThreshold = 3
        let captured = CapturedLog()
        let agent = try MonitorAgent.start(
            watching: office, settings: settings, runtimeDirectory: directory,
            logging: FindingLogging(logger: captured.logger(), interval: 0.1))
        defer { agent.stop() }
        let ids = (0..<4).map { _ in office.register { (_: Ping) in } }
        #expect(waitUntil { captured.all.contains { $0.metadata["finding.kind"] == "oversubscribed" } })
        office.unregister(ids[0])
        #expect(waitUntil { captured.all.contains { $0.metadata["finding.event"] == "stoppedHolding" } })
    }
}
