import ArgumentParser
import Glibc
import PonyExpress
import PonyExpressMonitor

/// What scopes (issue 42) cost the app: a registration made inside one, a post inside one, and a request's scope
/// from its start to its end, beside the same work outside any scope.
struct ScopeCost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scope-cost",
        abstract: "Time registering, posting and a request's whole scope, inside a scope and outside any."
    )

    @Option(help: "Operations measured per row.")
    var operations = 20_000

    struct Tick: Mail {
        var n: Int
    }

    mutating func run() throws {
        guard operations > 0 else { throw ValidationError("--operations must be above 0") }
        DebugBuild.warn("ponybench scope-cost")
        let office = PostOffice()
        office.register { (tick: Tick) in blackHole(tick) }
        let registerOutside = timed { _ in office.unregister(office.register { (_: Tick) in }) }
        let open = office.openScope("bench", grace: .zero)
        let registerInside = open.run { timed { _ in office.unregister(office.register { (_: Tick) in }) } }
        open.end()
        let postOutside = timed { n in office.post(Tick(n: n)) }
        let postInside = office.scope("bench", grace: .zero) { timed { n in office.post(Tick(n: n)) } }
        let emptyScope = timed { _ in office.scope("GET /", grace: .zero) {} }
        let request = timed { _ in
            office.scope("GET /", grace: .zero) { office.unregister(office.register { (_: Tick) in }) }
        }
        let requestGrace = timed { _ in office.scope("GET /") { office.unregister(office.register { (_: Tick) in }) } }
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        let requestWatched = timed { _ in
            office.scope("GET /", grace: .zero) { office.unregister(office.register { (_: Tick) in }) }
        }
        monitor.detach()
        let delays = findingDelays(trials: 20, grace: .milliseconds(100))
        print("ns on the calling thread, \(operations) operations a row (median / p99)\n")
        print("| operation | median ns | p99 ns | median vs its baseline |")
        print("|---|---:|---:|---:|")
        for (name, figures, baseline) in [
            ("register + unregister a block, outside any scope (baseline)", registerOutside, registerOutside),
            ("register + unregister a block, inside a scope", registerInside, registerOutside),
            ("post to one block, outside any scope (baseline)", postOutside, postOutside),
            ("post to one block, inside a scope", postInside, postOutside),
            ("a scope that registers nothing, opened and ended", emptyScope, registerOutside),
            (
                "a request: scope + register + unregister + end, grace 0 (checked on the thread)", request,
                registerOutside
            ),
            ("the same, default grace (the check is queued for 1 s later)", requestGrace, registerOutside),
            ("the same, grace 0, a monitor attached", requestWatched, registerOutside),
        ] {
            let ratio = String(format: "%.1fx", figures.median / baseline.median)
            print("| \(name) | \(Int(figures.median)) | \(Int(figures.p99)) | \(ratio) |")
        }
        print(
            "\nOne leaked registration, grace 100 ms, a snapshot every 1 ms: its outlivedScope finding showed "
                + String(format: "%.1f", delays.median / 1e6) + " ms after the grace (median of 20), "
                + String(format: "%.1f", delays.max / 1e6) + " ms at most; ponytop adds up to one refresh.")
    }

    private func timed(_ operation: (Int) -> Void) -> (median: Double, p99: Double) {
        Stopwatch.eachOperation(operations, operation)
    }

    /// How long after its grace period a scope's single leaked registration shows as a finding in a snapshot taken
    /// every millisecond: the post office's timer slack plus the monitor's share, for `trials` scopes one after another.
    private func findingDelays(trials: Int, grace: Duration) -> (median: Double, max: Double) {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        defer { monitor.detach() }
        let graceNanoseconds = Double(grace.components.seconds) * 1e9 + Double(grace.components.attoseconds) / 1e9
        var delays: [Double] = []
        for trial in 0..<trials {
            let name = "GET /trial/\(trial)"
            let scope = office.openScope(name, grace: grace)
            let leaked = scope.run { office.register { (_: Tick) in } }
            let ended = MonotonicClock.now()
            scope.end()
            let deadline = ended + 10_000_000_000
            var seen: UInt64?
            while seen == nil, MonotonicClock.now() < deadline {
                if monitor.snapshot().findings.contains(where: { $0.kind == .outlivedScope && $0.subject == name }) {
                    seen = MonotonicClock.now()
                } else {
                    usleep(1_000)
                }
            }
            office.unregister(leaked)
            if let seen { delays.append(Double(seen - ended) - graceNanoseconds) }
        }
        delays.sort()
        guard !delays.isEmpty else { return (.infinity, .infinity) }
        return (delays[delays.count / 2], delays[delays.count - 1])
    }
}
