import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Tick: Mail {
    var n: Int
}

@MainActor
private final class Screen {
    var total = 0
    var offMain = 0
}

@Suite("@MainActor blocks under the monitor", .tags(.concurrency))
struct MainActorBlockMonitorTests {
    @Test("Watched, a @MainActor block still runs on the main actor, and the monitor counts its deliveries")
    @MainActor
    func watchedBlockRunsOnMain() async {
        let (office, monitor, _) = watchedOffice()
        let screen = Screen()
        office.register { @MainActor (tick: Tick) in
            if !isOnMainQueue() { screen.offMain += 1 }
            screen.total += tick.n
        }
        await Task.detached {
            for n in 1...100 { office.post(Tick(n: n)) }
        }.value
        #expect(await eventually { screen.total == 5050 })
        #expect(screen.offMain == 0)
        let snapshot = monitor.snapshot()
        #expect(snapshot.stats(of: TypeIdentity(Tick.self))?.deliveries == 100)
        let recipient = snapshot.recipients(of: TypeIdentity(Tick.self)).first
        #expect(recipient?.deliveries == 100)
        #expect(recipient?.info.queueLabel == DispatchQueue.main.label)
    }
}
