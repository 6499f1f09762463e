import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

// The examples of the DocC article "Once, replay, limits and streams", written here as they are there.

private struct CartUpdated: Mail {
    var items: Int
}

private struct ReachabilityChanged: Mail {
    var isReachable: Bool
}

private final class NetworkMonitor {}

@MainActor
private final class ViewModel {
    let log = Tally<Bool>()
    func reachabilityChanged(_ change: ReachabilityChanged) { log.add(change.isReachable) }
}

@MainActor
private final class Badge {
    var count = 0
}

/// Stands in for the app's logger.
private struct Logger {
    let lines = Tally<String>()
    func warning(_ line: String) { lines.add(line) }
}

@Suite("Signals-style examples")
struct SignalsStyleExamplesTests {
    @Test("Overview: once, and replay to a @MainActor method, on the main queue")
    @MainActor
    func overview() async {
        let office = PostOffice()
        let viewModel = ViewModel()
        let printed = Tally<String>()
        @Sendable func print(_ items: Any...) { printed.add(items.map { "\($0)" }.joined(separator: " ")) }
        office.register(options: .once) { (update: CartUpdated) in print("first update:", update.items) }

        office.keepLastMail(ReachabilityChanged.self)
        office.post(ReachabilityChanged(isReachable: true))
        office.register(options: .replay, viewModel, ViewModel.reachabilityChanged)  // a @MainActor method: on main

        office.post(CartUpdated(items: 1))
        office.post(CartUpdated(items: 2))
        #expect(printed.all == ["first update: 1"])
        #expect(await eventually { viewModel.log.all == [true] })
    }

    @Test("Replaying the last mail: through the sender filter")
    func replayFilter() {
        let office = PostOffice()
        let monitor = NetworkMonitor()
        let otherMonitor = NetworkMonitor()
        let shown = Tally<Bool>()
        func show(_ change: ReachabilityChanged) { shown.add(change.isReachable) }

        office.keepLastMail(ReachabilityChanged.self)
        office.post(ReachabilityChanged(isReachable: true), sender: monitor)

        // Replayed at once: the kept mail passes the filter.
        office.register(sender: monitor, options: .replay) { (change: ReachabilityChanged) in show(change) }
        // Not replayed: the kept mail was posted by another sender.
        office.register(sender: otherMonitor, options: .replay) { (change: ReachabilityChanged) in show(change) }

        #expect(shown.all == [true])
        #expect(office.lastMail(ReachabilityChanged.self)?.isReachable == true)
        withExtendedLifetime(otherMonitor) {}
    }

    @Test("Recipient limits: a per-type and a default limit, with a handler")
    func limits() {
        let office = PostOffice()
        let logger = Logger()
        office.setRecipientLimit(100, for: CartUpdated.self)
        office.setDefaultRecipientLimit(1_000)
        // Not asserting here: a test must not stop the program.
        office.onRecipientLimitExceeded(assertingInDebugBuilds: false) { breach in
            logger.warning("\(breach.count) recipients of \(breach.recipient.mailType) at \(breach.recipient.site)")
        }
        for _ in 0..<101 { office.register { (_: CartUpdated) in } }
        #expect(logger.lines.count == 1)
        #expect(logger.lines.all.first?.hasPrefix("101 recipients of CartUpdated at PonyExpressTests/") == true)
    }

    @Test("Mail as an async sequence: a @MainActor task, cancelled")
    @MainActor
    func stream() async {
        let office = PostOffice()
        let badge = Badge()
        let task = Task { @MainActor in
            for await update in office.mail(CartUpdated.self) { badge.count = update.items }
        }
        #expect(await eventually { office.recipientCount == 1 })
        office.post(CartUpdated(items: 4))
        #expect(await eventually { badge.count == 4 })
        task.cancel()  // unregisters
        #expect(await eventually { office.recipientCount == 0 })
    }
}
