import ArgumentParser
import Dispatch
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
    }

    private func timed(_ operation: (Int) -> Void) -> (median: Double, p99: Double) {
        var samples: [UInt64] = []
        samples.reserveCapacity(operations)
        for n in 0..<operations {
            let start = DispatchTime.now().uptimeNanoseconds
            operation(n)
            samples.append(DispatchTime.now().uptimeNanoseconds - start)
        }
        samples.sort()
        return (Double(samples[samples.count / 2]), Double(samples[samples.count * 99 / 100]))
    }
}
