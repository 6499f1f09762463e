import ArgumentParser
import Foundation
import PonyExpress
import PonyExpressMonitor

/// The benchmark tool: speed comparisons and long-running measurements, each a subcommand.
@main
struct PonyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ponybench",
        abstract: "Measure PonyExpress: speed against other buses, overheads, and memory over long runs.",
        discussion: "Build in release mode for meaningful figures: swift run -c release ponybench",
        subcommands: PonyBench.subcommands,
        defaultSubcommand: Compare.self)
}

extension PonyBench {
    /// Every subcommand; `metrics-cost` and `relay` need the package's Prometheus and Relay traits (on by default).
    static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            Compare.self, RunnerThroughput.self, Soak.self, FindingsBench.self, Instructions.self, Repeat.self,
            AttachScale.self,
        ]
        #if Prometheus
            commands.append(MetricsCost.self)
        #endif
        commands.append(AgentAttack.self)
        commands.append(WatchCost.self)
        commands.append(ReleasedScreens.self)
        commands.append(Retention.self)
        commands.append(StreamCost.self)
        commands.append(ScopeCost.self)
        #if Relay
            commands.append(RelayBench.self)
        #endif
        return commands
    }
}

/// Measures PonyExpress against a plain array of closures (the floor), a lock-and-dictionary bus, NotificationCenter
/// and Foundation's typed messages on the same workloads, in one process run, and checks the targets as ratios.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Benchmark PonyExpress against the floor, a lock-and-dictionary bus, NotificationCenter and Foundation's "
            + "typed messages (MainActorMessage, AsyncMessage).")

    @Flag(help: "Time shorter batches: a quick look, noisier figures.")
    var quick = false

    mutating func run() throws {
        var settings = BenchSettings()
        if quick {
            settings.batchSeconds = 0.02
            settings.samples = 3
        }
        DebugBuild.warn("ponybench")
        var report = BenchmarkTable()
        PonyBench.becomeMultithreaded()
        print("Measuring (ns per operation, fastest of \(settings.samples) batches)...\n")

        let workloads: [Workload] = [
            .post(recipients: 1), .post(recipients: 10), .post(recipients: 100),
            .postAmongTypes(others: 10), .postAmongTypes(others: 1_000), .postAmongTypes(others: 10_000),
            .registerUnregister, .registerUnregisterMethod, .twoThreads,
        ]
        for workload in workloads {
            report.add(
                Row(
                    workload: workload.description,
                    floor: workload.measure(ClosureArrayBus.self, settings: settings),
                    lockedDictionary: workload.measure(LockedDictionaryBus.self, settings: settings),
                    notificationCenter: workload.measure(NotificationCenterBus.self, settings: settings),
                    mainActorMessage: workload.measureIfApplicable(MainActorMessageBus.self, settings: settings),
                    asyncMessage: workload.measureIfApplicable(AsyncMessageBus.self, settings: settings),
                    ponyExpress: workload.measure(PonyExpressBus.self, settings: settings)))
        }
        // Each overhead is timed against a bare post office in alternating batches, not against the table's row:
        // by now the process has run other workloads (threads included), which shifts every later figure.
        let tapped = Workload.measurePair(recipients: 1, settings: settings) { bus in
            bus.office.attach(CountingTap())
        }
        report.addExtra(name: BenchmarkTable.countingTap, nanoseconds: tapped.prepared, bare: tapped.bare)
        // The monitor at default settings, the targets: at most 1.3x a bare post to 1 and 1.1x a bare post
        // to 100.
        let monitorLimits: [(recipients: Int, limit: Double?)] = [(1, 1.3), (10, nil), (100, 1.1)]
        for (recipients, limit) in monitorLimits {
            // The post office keeps its taps, so the monitor lives as long as the bus it measures.
            let monitored = Workload.measurePair(recipients: recipients, settings: settings) { bus in
                PostOfficeMonitor().attach(to: bus.office)
            }
            report.addExtra(
                name: "post to \(recipients), the monitor attached", nanoseconds: monitored.prepared,
                bare: monitored.bare, limit: limit)
        }
        // The rows above post one mail type to one recipient, which the monitor counts as repeats without its
        // shard's lock, for up to four (type, recipient) pairs per thread and second; eight types in turn are never
        // repeats, and pay for the lock on every post (no target).
        for types in [2, 8] {
            let inTurn = Workload.measureInTurnPair(types: types, settings: settings) { bus in
                PostOfficeMonitor().attach(to: bus.office)
            }
            report.addExtra(
                name: "post to 1, \(types) mail types in turn, the monitor attached", nanoseconds: inTurn.prepared,
                bare: inTurn.bare)
        }
        // Once, replay and limits cost only the registrations and types that use them.
        let elsewhere = Workload.measurePair(recipients: 1, settings: settings) { bus in
            bus.office.keepLastMail(OtherBenchMail.self)
            bus.office.setRecipientLimit(100, for: OtherBenchMail.self)
            bus.office.register(options: [.once, .replay]) { (_: OtherBenchMail) in }
            bus.office.post(OtherBenchMail())
        }
        report.addExtra(
            name: "post to 1, a once/replay/limited type elsewhere", nanoseconds: elsewhere.prepared,
            bare: elsewhere.bare)
        let kept = Workload.measurePair(recipients: 1, settings: settings) { bus in
            bus.office.keepLastMail(BenchMail.self)
        }
        report.addExtra(
            name: "post to 1 of a type that keeps its last mail", nanoseconds: kept.prepared, bare: kept.bare)
        // The generic shape: an adapter generic over `M: Mail` posting `Envelope<M>`, as an app's helper would.
        for row in GenericShape.rows(settings: settings) { report.add(row) }
        let method = Workload.measureObjectRecipient(settings: settings)
        report.addExtra(
            name: "post to 1, an object's method instead of a block", nanoseconds: method.object, bare: method.block)

        print(report.table())
        let lost = AsyncMessageBus.lost.load(ordering: .relaxed)
        if lost > 0 {
            print(
                "AsyncMessage: \(lost) deliveries never arrived (none came for \(AsyncMessageBus.stallLimit) after its"
                    + " batch's posts); those batches were timed with the wait, and the fastest of them is shown.\n")
        }
        print(report.targets())
    }
}

extension PonyBench {
    /// Starts and joins one thread before anything is timed. Until a process starts its first thread, glibc takes
    /// shortcuts in `pthread_mutex_lock` and `malloc` that no app with a dispatch queue ever sees; every bus here
    /// locks, so every row is timed as in an app, and none changes its cost halfway through the run.
    static func becomeMultithreaded() {
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread { finished.signal() }
        finished.wait()
    }
}
