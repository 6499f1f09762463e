import Dispatch
import Foundation
import PonyExpress
import PonyTestSupport
import Testing

// The examples of the DocC article "Once, replay, limits and streams", held verbatim between `// README begin` and
// `// README end` (DocumentedCodeTests compares them with the article).

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

/// Whether this is a debug build, where `assertingInDebugBuilds` stops the program.
private let isDebugBuild: Bool = {
    #if DEBUG
        true
    #else
        false
    #endif
}()

/// Stands in for the app's logger.
private struct Logger {
    let lines = Tally<String>()
    func warning(_ line: String) { lines.add(line) }
}

/// Stands in for the app's logger in a process that is to stop: its lines go to stderr, where the exit test reads
/// them.
private struct StandardErrorLogger {
    func warning(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
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
        // README begin
        office.register(options: .once) { (update: CartUpdated) in print("first update:", update.items) }

        office.keepLastMail(ReachabilityChanged.self)
        // README end
        office.post(ReachabilityChanged(isReachable: true))
        // README begin
        office.register(options: .replay, viewModel, ViewModel.reachabilityChanged)  // a @MainActor method: on main
        // README end

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
        @Sendable func show(_ change: ReachabilityChanged) { shown.add(change.isReachable) }

        // README begin
        office.keepLastMail(ReachabilityChanged.self)
        office.post(ReachabilityChanged(isReachable: true), sender: monitor)

        // Replayed at once: the kept mail passes the filter.
        office.register(sender: monitor, options: .replay) { (change: ReachabilityChanged) in show(change) }
        // Not replayed: the kept mail was posted by another sender.
        office.register(sender: otherMonitor, options: .replay) { (change: ReachabilityChanged) in show(change) }
        // README end

        #expect(shown.all == [true])
        #expect(office.lastMail(ReachabilityChanged.self)?.isReachable == true)
        withExtendedLifetime(otherMonitor) {}
    }

    @Test(
        "Recipient limits: a per-type and a default limit, a handler, then a debug build stops at the registration",
        .enabled(if: isDebugBuild, "the assertion is a debug build's"),
        .exitTestOutsideThreadSanitizer)
    func limits() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let office = PostOffice()
            let logger = StandardErrorLogger()
            // README begin
            office.setRecipientLimit(100, for: CartUpdated.self)
            office.setDefaultRecipientLimit(1_000)
            office.onRecipientLimitExceeded(assertingInDebugBuilds: true) { breach in
                logger.warning("\(breach.count) recipients of \(breach.recipient.mailType) at \(breach.recipient.site)")
            }
            // README end
            for _ in 0..<100 { office.register { (_: CartUpdated) in } }
            logger.warning("100 registered")
            office.register { (_: CartUpdated) in }
            logger.warning("the program went on")
        }
        let lines = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            .split(separator: "\n").map(String.init)
        #expect(lines.contains("100 registered"), "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("101 recipients of CartUpdated at PonyExpressTests/") },
            "the handler runs before the assertion: \(lines)")
        #expect(!lines.contains("the program went on"), "\(lines)")
    }

    @Test("Recipient limits without the assertion: the handler hears each registration past the limit")
    func limitsWithoutAssertion() {
        let office = PostOffice()
        let logger = Logger()
        office.setRecipientLimit(100, for: CartUpdated.self)
        office.setDefaultRecipientLimit(1_000)
        office.onRecipientLimitExceeded { breach in
            logger.warning("\(breach.count) recipients of \(breach.recipient.mailType) at \(breach.recipient.site)")
        }
        for _ in 0..<102 { office.register { (_: CartUpdated) in } }
        #expect(logger.lines.count == 2)
        #expect(logger.lines.all.first?.hasPrefix("101 recipients of CartUpdated at PonyExpressTests/") == true)
    }

    @Test("Mail as an async sequence: a @MainActor task, cancelled")
    @MainActor
    func stream() async {
        let office = PostOffice()
        let badge = Badge()
        // README begin
        let task = Task { @MainActor in
            for await update in office.mail(CartUpdated.self) { badge.count = update.items }
        }
        // README end
        #expect(await eventually { office.recipientCount == 1 })
        office.post(CartUpdated(items: 4))
        #expect(await eventually { badge.count == 4 })
        // README begin
        task.cancel()  // unregisters
        // README end
        #expect(await eventually { office.recipientCount == 0 })
    }
}
