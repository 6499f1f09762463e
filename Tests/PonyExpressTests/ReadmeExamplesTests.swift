import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

// The README's examples (and the PonyExpress article's quick start), held verbatim between `// README begin` and
// `// README end` (DocumentedCodeTests compares every region with the documents), each run and checked for what the
// text around it promises.

private let printed = Tally<String>()

/// The README's tap example prints; here printing is recorded.
private func print(_ items: Any...) {
    printed.add(items.map { "\($0)" }.joined(separator: " "))
}

private struct CartUpdated: Mail {
    var items: Int
}

private class Store {}

private final class CartViewModel: Sendable {
    let log = Tally<String>()
    func cartChanged(_ update: CartUpdated) { log.add("cartChanged \(update.items)") }
    func refresh() { log.add("refresh") }
    // README begin
    func anySender(_ mail: CartUpdated) {}  // any sender, nil included
    func optionalSender(_ mail: CartUpdated, sender: Store?) {}  // nil, or a Store (or subclass)
    func requiredSender(_ mail: CartUpdated, sender: Store) {}  // only a Store (or subclass)
    // README end
}

@Suite("README examples", .tags(.concurrency))
struct ReadmeExamplesTests {
    @Test("Senders: by type, optional or required, or one exact instance")
    func senders() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let viewModel = CartViewModel()
        let store = Store()
        let optional = office.register(viewModel, CartViewModel.optionalSender)
        let required = office.register(viewModel, CartViewModel.requiredSender)
        let untyped = office.register(viewModel, CartViewModel.anySender)
        // README begin
        office.register(sender: store, viewModel, CartViewModel.anySender)  // only mail posted by exactly `store`
        office.post(CartUpdated(items: 3), sender: store)
        // README end
        let exact = try #require(tap.registered.last?.id)
        func reached() -> [RecipientId] {
            defer { tap.clear() }
            return tap.delivered.map(\.recipient)
        }
        #expect(reached() == [optional, required, untyped, exact])
        office.post(CartUpdated(items: 3))
        #expect(reached() == [optional, untyped], "no sender: the optional and the untyped ones")
        office.post(CartUpdated(items: 3), sender: Store())
        #expect(reached() == [optional, required, untyped], "another Store: all but the exact one")
        // This example's own record of what it prints.
        let printed = Tally<String>()
        @Sendable func print(_ items: Any...) { printed.add(items.map { "\($0)" }.joined(separator: " ")) }
        // README begin
        struct CheckedOut: VerifiedMail { typealias RequiredSender = Store }  // not Mail: its own overloads
        office.register { (_: CheckedOut, store: Store) in print("paid at", store) }  // also (mail), () and sender:
        office.post(CheckedOut(), sender: store)  // a Store or subclass; nil or another type fails to compile
        // README end
        #expect(printed.all.count == 1 && printed.all.first?.hasPrefix("paid at") == true)
    }

    @Test("Recipients: an object's method, a block, no parameters, a queue, a MailRecipient")
    func recipients() {
        let office = PostOffice()
        let viewModel = CartViewModel()
        let screen = CartScreen(office: office, viewModel: viewModel)
        let inbox = screen.registerAsTheReadmeDoes()
        // The block was unregistered; the rest stay, the queued one on the main queue.
        #expect(office.recipients(of: CartUpdated.self).map(\.queueLabel) == [nil, nil, DispatchQueue.main.label, nil])
        office.post(CartUpdated(items: 2))
        #expect(inbox.log.all == [2])
        #expect(screen.log.all.isEmpty, "the unregistered block got mail")
        // The main queue's delivery comes when the main queue runs it.
        #expect(waitUntil { viewModel.log.count == 3 })
        #expect(viewModel.log.all.sorted() == ["cartChanged 2", "cartChanged 2", "refresh"])
    }

    @Test("Recipients: Signals-style options")
    func signalsStyleOptions() async {
        let office = PostOffice()
        let viewModel = CartViewModel()
        // This example's own record of what it prints, apart from the tap example's.
        let printed = Tally<String>()
        @Sendable func print(_ items: Any...) { printed.add(items.map { "\($0)" }.joined(separator: " ")) }
        // README begin
        office.register(options: .once) { (update: CartUpdated) in print("first:", update.items) }  // then unregistered
        office.keepLastMail(CartUpdated.self)  // one value and its sender (weakly); .replay delivers it at once
        // README end
        office.post(CartUpdated(items: 5))
        // README begin
        office.register(queue: .main, options: .replay, viewModel, CartViewModel.cartChanged)
        office.setRecipientLimit(100, for: CartUpdated.self)  // past it: a mark for taps, and the app's warning
        office.onRecipientLimitExceeded { breach in print(breach.count, "recipients of", breach.recipient.mailType) }
        // Sendable mail as an AsyncSequence, unregistered when the task is cancelled or the stream released:
        let task = Task { for await update in office.mail(CartUpdated.self) { print("cart:", update.items) } }
        // README end

        // The main queue and the task's first step wait for a thread of the cooperative pool, which the whole suite
        // under AddressSanitizer on two cores kept busy past 5 s once (CI, 26 November): 30 s, ended when it holds.
        #expect(await eventually(timeout: 30) { viewModel.log.all == ["cartChanged 5"] })
        #expect(await eventually(timeout: 30) { office.recipientCount == 2 })
        office.post(CartUpdated(items: 6))
        #expect(await eventually(timeout: 30) { printed.all.contains("cart: 6") })
        #expect(printed.all.contains("first: 5"))
        #expect(!printed.all.contains("first: 6"), "once: then unregistered")
        task.cancel()
        #expect(await eventually(timeout: 30) { office.recipientCount == 1 })
        office.setRecipientLimit(0, for: CartUpdated.self)
        office.register { (_: CartUpdated) in }
        #expect(printed.all.last == "2 recipients of CartUpdated")
    }

    @Test("Swift 6: a @MainActor block, waiting for the next mail, a subscription that unregisters")
    @MainActor
    func swift6() async throws {
        final class Badge {
            var items = 0
        }
        let office = PostOffice()
        let badge = Badge()
        let printed = Tally<String>()
        @Sendable func print(_ items: Any...) { printed.add(items.map { "\($0)" }.joined(separator: " ")) }
        // Posts once the wait below is registered: the @MainActor block and the wait make two registrations.
        let poster = Task.detached {
            guard await eventually(timeout: 30, { office.recipientCount == 2 }) else { return }
            office.post(CartUpdated(items: 0))
            office.post(CartUpdated(items: 4))
        }
        // README begin
        office.register { @MainActor (update: CartUpdated) in badge.items = update.items }  // main-actor state: on main
        let update = try await office.next(CartUpdated.self, where: { $0.items > 0 }, timeout: .seconds(30))
        let subscription = office.subscription(for: office.register { (update: CartUpdated) in print(update.items) })
        subscription.cancel()  // or release it: unregistered either way, so a dropped id cannot leak a block
        // README end
        await poster.value
        #expect(update.items == 4)
        #expect(await eventually(timeout: 30) { badge.items == 4 })
        #expect(office.recipientCount == 1, "the wait and the subscription left; the @MainActor block stays")
        office.post(CartUpdated(items: 9))
        #expect(printed.all.isEmpty, "the subscription was cancelled before any post reached it")
    }

    @Test("The delivery tap: registrations with their site, deliveries with their times, until detached")
    func tap() {
        let office = PostOffice()
        // README begin
        let tap = ClosureTap { event in
            switch event {
            case .registered(let info): print("registered", info.mailType, "at", info.site)
            case .delivered(let delivery): print("delivered in", delivery.duration, "ns after", delivery.wait, "ns")
            default: break  // .posted, .skipped, .unregistered, .pruned
            }
        }
        office.attach(tap)
        // README end
        office.register { (_: CartUpdated) in }
        office.post(CartUpdated(items: 1))
        // README begin
        office.detach(tap)
        // README end
        office.post(CartUpdated(items: 1))
        let lines = printed.all
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("registered CartUpdated at PonyExpressTests/ReadmeExamplesTests.swift:") == true)
        #expect(lines.last?.hasPrefix("delivered in ") == true)
    }

    @Test("Quick start: a recipient registered in its init gets the mail posted to the default post office")
    func quickStart() {
        let tap = RecordingTap()
        PostOffice.default.attach(tap)
        defer { PostOffice.default.detach(tap) }
        ReadmeQuickStart.run()
        let mailType = TypeIdentity(ReadmeQuickStart.ExampleNotification.self)
        #expect(tap.posted.filter { $0.mailType == mailType }.map(\.matched) == [1])
        #expect(tap.delivered.filter { $0.mailType == mailType }.count == 1)
    }

    @Test("The PonyExpress article's quick start: the same, with the init spelled out")
    func articleQuickStart() {
        let tap = RecordingTap()
        PostOffice.default.attach(tap)
        defer { PostOffice.default.detach(tap) }
        ArticleQuickStart.run()
        let mailType = TypeIdentity(ArticleQuickStart.ExampleNotification.self)
        #expect(tap.posted.filter { $0.mailType == mailType }.map(\.matched) == [1])
        #expect(tap.delivered.filter { $0.mailType == mailType }.count == 1)
    }
}

/// The README's quick start, in a namespace of its own: `PonyExpress.md` shows another version with the same names.
private enum ReadmeQuickStart {
    // README begin
    struct ExampleNotification: Mail {
        var info: Int
        var other: Float
    }

    final class ExampleRecipient: Sendable {
        init() { PostOffice.default.register(self, ExampleRecipient.receive) }
        func receive(notification: ExampleNotification) {
            // ... process the notification
        }
    }

    // README end
    static func run() {
        // README begin
        let recipient = ExampleRecipient()
        PostOffice.default.post(ExampleNotification(info: 12, other: 15))
        // README end
        withExtendedLifetime(recipient) {}
    }
}

/// The PonyExpress article's quick start (`PonyExpress.md`).
private enum ArticleQuickStart {
    // README begin
    struct ExampleNotification: Mail {
        var info: Int
        var other: Float
    }

    final class ExampleRecipient: Sendable {
        init() {
            PostOffice.default.register(self, ExampleRecipient.receive)
        }

        func receive(notification: ExampleNotification) {
            // ... process the notification
        }
    }

    // README end
    static func run() {
        // README begin
        let recipient = ExampleRecipient()
        PostOffice.default.post(ExampleNotification(info: 12, other: 15))
        // README end
        withExtendedLifetime(recipient) {}
    }
}

private final class Inbox: MailRecipient, Sendable {
    let log = Tally<Int>()
    func receive(mail: CartUpdated) { log.add(mail.items) }
}

/// The README's recipients example needs a `self` with a `refresh(_:)`: a screen that owns its registrations.
private final class CartScreen: Sendable {
    let office: PostOffice
    let viewModel: CartViewModel
    let log = Tally<Int>()

    init(office: PostOffice, viewModel: CartViewModel) {
        self.office = office
        self.viewModel = viewModel
    }

    func registerAsTheReadmeDoes() -> Inbox {
        // README begin
        office.register(viewModel, CartViewModel.cartChanged)  // an object's method: held weakly, no unregistering
        let id = office.register { [weak self] (update: CartUpdated) in self?.refresh(update) }  // held strongly
        office.unregister(id)
        office.register(CartUpdated.self, viewModel, CartViewModel.refresh)  // no parameters: name the mail type
        office.register(queue: .main, viewModel, CartViewModel.cartChanged)  // delivered asynchronously on a queue
        let inbox = Inbox()
        office.register(inbox)  // an object conforming to MailRecipient registers itself
        // README end
        return inbox
    }

    func refresh(_ update: CartUpdated) { log.add(update.items) }
}
