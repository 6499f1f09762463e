import ArgumentParser
import Foundation
import Glibc
import PonyExpress
import PonyExpressAgent
import PonyExpressMonitor
import PonyExpressWire

/// What one `ponytop --attach` refresh costs an app at scale: an agent over a post office with many mail types
/// and live recipients, asked for snapshots through its Unix socket by a real client, as ponytop asks.
struct AttachScale: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Time an agent's snapshot, encoding and reply at 1,000 mail types and 100,000 live recipients.",
        discussion: """
            Each request is timed from the client's send to the decoded snapshot in its hands, over the agent's \
            Unix socket, 0.5 s apart (ponytop's default refresh); the request names one mail type, whose recipients \
            come along, as ponytop's does. The \
            target is a median of at most 20 ms. The monitor's snapshot (full, and with one type's recipients as \
            the agent takes it), the encoding and the decoding are also timed alone.
            """)

    @Option(help: "Mail types with live recipients.")
    var mailTypes = 1_000

    @Option(help: "Live recipients, spread evenly over the mail types.")
    var recipients = 100_000

    @Option(help: "Requests to time.")
    var requests = 30

    func validate() throws {
        guard (1...16_384).contains(mailTypes) else { throw ValidationError("--mail-types must be 1...16384") }
        guard (mailTypes...10_000_000).contains(recipients) else {
            throw ValidationError("--recipients must be at least --mail-types, at most 10000000")
        }
        guard (3...10_000).contains(requests) else { throw ValidationError("--requests must be 3...10000") }
    }

    func run() throws {
        DebugBuild.warn("ponybench attach")
        let office = PostOffice()
        var settings = MonitorSettings()
        settings.mailTypeCapacity = max(settings.mailTypeCapacity, mailTypes)
        var template = Array("/tmp/ponybench-attach-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let agent = try MonitorAgent.start(watching: office, settings: settings, runtimeDirectory: directory)
        defer {
            agent.stop()
            rmdir(directory)
        }
        let perType = recipients / mailTypes
        for index in 0..<mailTypes {
            withOtherMailType(
                index,
                Populate(
                    office: office, recipients: perType + (index < recipients % mailTypes ? 1 : 0),
                    line: UInt(index % 500)))
        }
        print("\(mailTypes) mail types, \(office.recipients().count) live recipients\n")

        let monitorSnapshot = Self.best(of: 5) { _ = agent.monitor.snapshot() }
        let shown = agent.monitor.snapshot().mailTypes[0].mailType
        let limitedSnapshot = Self.best(of: 5) { _ = agent.monitor.snapshot(keepingRecipientsOf: { $0 == shown }) }
        // A registration changed since the last snapshot: the registry orders its registrations again.
        let churned =
            (0..<5).map { _ in
                let id = office.register { (_: BenchMail) in }
                defer { office.unregister(id) }
                return Stopwatch.time { _ = agent.monitor.snapshot(keepingRecipientsOf: { $0 == shown }) } / 1e6
            }.min() ?? 0
        // What the agent sends a viewer that did not ask for the rule facts, and what it sends one that records: its
        // facts count the living recipients of every mail type, asking the post office about each.
        let inFull = Self.best(of: 5) {
            _ = agent.monitor.snapshot(keepingRecipientsOf: { $0 == shown }, factsInFull: true)
        }
        let withFacts = agent.monitor.snapshot(keepingRecipientsOf: { $0 == shown }, factsInFull: true)
        var snapshot = agent.monitor.snapshot(keepingRecipientsOf: { $0 == shown })
        snapshot.dropRuleFacts()
        var bytes = 0
        let encode = Self.best(of: 5) {
            bytes = (try? SnapshotFrame(takenAt: 0, snapshot: snapshot).frame.bytes.count) ?? 0
        }
        var factBytes = 0
        let encodeFacts = Self.best(of: 5) {
            factBytes = (try? SnapshotFrame(takenAt: 0, snapshot: withFacts).frame.bytes.count) ?? 0
        }
        let frame = try SnapshotFrame(takenAt: 0, snapshot: snapshot).frame
        let decode = Self.best(of: 5) { _ = try? SnapshotFrame.read(frame) }

        // Two viewers, asked in turn: a ponytop of protocol 1.9, which asks for the facts it judges itself (for its
        // thresholds' floors), and an older one, which the agent judges for.
        let judging = try AgentClient.connect(to: .socket(agent.socketPath))
        let judged = try AgentClient.connect(to: .socket(agent.socketPath))
        defer {
            judging.close()
            judged.close()
        }
        judging.send(.factsToJudge(FindingJudge(judgingFactsWith: MonitorSettings()).floors))
        var trips: (judging: [Double], judged: [Double]) = ([], [])
        // Requests at ponytop's default refresh, 0.5 s apart: an agent serves one viewer a snapshot at most every
        // MonitorAgent.Limits.minimumSnapshotInterval, so requests sent back to back would time that wait instead.
        var previous: UInt64 = 0
        func roundTrip(_ client: AgentClient) throws -> Double {
            let count = client.latest.count
            let start = MonotonicClock.now()
            client.send(.snapshot(recipientsOf: [shown.qualifiedName]))
            guard client.waitForSnapshot(after: count, timeout: 30) != nil else {
                throw ValidationError("the agent did not answer within 30 s: \(client.closedReason ?? "no reason")")
            }
            return Double(MonotonicClock.now() - start) / 1e6
        }
        for _ in 0..<requests {
            let due = previous &+ 500_000_000
            let now = MonotonicClock.now()
            if previous != 0, due > now { usleep(UInt32((due - now) / 1_000)) }
            previous = MonotonicClock.now()
            trips.judging.append(try roundTrip(judging))
            // A quarter of a second apart, so that neither waits for the agent's share of a core the other spent.
            let half = previous &+ 250_000_000
            let then = MonotonicClock.now()
            if half > then { usleep(UInt32((half - then) / 1_000)) }
            trips.judged.append(try roundTrip(judged))
        }
        let roundTrips = trips.judging.sorted()
        let median = roundTrips[roundTrips.count / 2]
        let olderMedian = trips.judged.sorted()[trips.judged.count / 2]
        func ms(_ value: Double) -> String { String(format: "%8.2f ms", value) }
        print("monitor.snapshot() alone, fastest of 5       \(ms(monitorSnapshot))")
        print("... with one type's recipients, fastest of 5  \(ms(limitedSnapshot))")
        print("... right after a registration, fastest of 5  \(ms(churned))")
        print("... with rule facts for a recorder, fastest of 5 \(ms(inFull))")
        print("encode the frame alone, fastest of 5          \(ms(encode))   (\(bytes / 1024) KiB)")
        print("... with the rule facts (a recorder's)        \(ms(encodeFacts))   (\(factBytes / 1024) KiB)")
        print("decode the frame alone, fastest of 5          \(ms(decode))")
        print("request -> decoded snapshot, fastest          \(ms(roundTrips[0]))")
        print("request -> decoded snapshot, median of \(requests)    \(ms(median))")
        print("request -> decoded snapshot, slowest          \(ms(roundTrips[roundTrips.count - 1]))")
        print("... an older viewer's, judged by the agent, median \(ms(olderMedian))")
        print("\ntarget: median at most 20 ms: \(median <= 20 ? "met" : "NOT met")")
    }

    /// The fastest of `count` runs, in milliseconds.
    static func best(of count: Int, _ body: () -> Void) -> Double {
        (0..<count).map { _ in Stopwatch.time(body) / 1e6 }.min() ?? 0
    }

    /// Registers a mail type's recipients (blocks, from one of 500 sites) and posts it once.
    struct Populate: MailTypeVisitor {
        let office: PostOffice
        let recipients: Int
        let line: UInt

        func visit<T: EmptyMail>(_ type: T.Type) {
            for _ in 0..<recipients { office.register(type, {}, line: line) }
        }
    }
}
