import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

// The README's examples, written here as they are there, so that they cannot rot.

private let printed = Tally<String>()

/// The README's tap example prints; here printing is recorded.
private func print(_ items: Any...) {
    printed.add(items.map { "\($0)" }.joined(separator: " "))
}

private struct CartUpdated: Mail {
    var items: Int
}

private class Store {}

private final class CartViewModel {
    let log = Tally<String>()
    func cartChanged(_ update: CartUpdated) { log.add("cartChanged \(update.items)") }
    func refresh() { log.add("refresh") }
    func anySender(_ mail: CartUpdated) { log.add("anySender") }
    func optionalSender(_ mail: CartUpdated, sender: Store?) { log.add("optionalSender") }
    func requiredSender(_ mail: CartUpdated, sender: Store) { log.add("requiredSender") }
}

private final class Inbox: MailRecipient {
    let log = Tally<Int>()
    func receive(mail: CartUpdated) { log.add(mail.items) }
}

private final class CartScreen {
    let office: PostOffice
    let log = Tally<Int>()
    var id: RecipientId?

    init(office: PostOffice) {
        self.office = office
    }

    func start() {
        let id = office.register { [weak self] (update: CartUpdated) in self?.refresh(update) }
        self.id = id
    }

    func stop() {
        if let id { office.unregister(id) }
    }

    func refresh(_ update: CartUpdated) { log.add(update.items) }
}

@Suite("README examples")
struct ReadmeExamplesTests {
    @Test("Recipients")
    func recipients() {
        let office = PostOffice()
        let viewModel = CartViewModel()
        let screen = CartScreen(office: office)
        // An object and its method: held weakly, never needs unregistering.
        office.register(viewModel, CartViewModel.cartChanged)
        screen.start()
        // A method or block that takes no parameters, for an explicit mail type.
        office.register(CartUpdated.self, viewModel, CartViewModel.refresh)
        // An object conforming to MailRecipient registers itself.
        let inbox = Inbox()
        office.register(inbox)
        office.post(CartUpdated(items: 2))
        screen.stop()
        office.post(CartUpdated(items: 3))
        #expect(viewModel.log.all == ["cartChanged 2", "refresh", "cartChanged 3", "refresh"])
        #expect(screen.log.all == [2])
        #expect(inbox.log.all == [2, 3])
        // Asynchronous delivery on a queue.
        let queued = DispatchQueue(label: "readme")
        office.register(queue: queued, viewModel, CartViewModel.cartChanged)
        office.post(CartUpdated(items: 4))
        queued.sync {}
        #expect(viewModel.log.all.suffix(3) == ["cartChanged 4", "refresh", "cartChanged 4"])
        // As the README writes it: delivery on the main queue.
        let main = office.register(queue: .main, viewModel, CartViewModel.cartChanged)
        #expect(office.recipients(of: CartUpdated.self).last?.queueLabel == DispatchQueue.main.label)
        office.unregister(main)
    }

    @Test("Recipients: Signals-style options")
    func signalsStyleOptions() async {
        let office = PostOffice()
        let viewModel = CartViewModel()
        // This example's own record of what it prints, apart from the tap example's.
        let printed = Tally<String>()
        @Sendable func print(_ items: Any...) { printed.add(items.map { "\($0)" }.joined(separator: " ")) }
        office.register(options: .once) { (update: CartUpdated) in print("first:", update.items) }  // then unregistered
        office.keepLastMail(CartUpdated.self)  // one value and its sender (weakly); .replay delivers it at once
        office.post(CartUpdated(items: 5))
        office.register(queue: .main, options: .replay, viewModel, CartViewModel.cartChanged)
        office.setRecipientLimit(100, for: CartUpdated.self)  // past it: a mark for taps, and the app's warning
        office.onRecipientLimitExceeded { breach in print(breach.count, "recipients of", breach.recipient.mailType) }
        // Sendable mail as an AsyncSequence, unregistered when the task is cancelled or the stream released:
        let task = Task { for await update in office.mail(CartUpdated.self) { print("cart:", update.items) } }

        #expect(await eventually { viewModel.log.all == ["cartChanged 5"] })
        #expect(await eventually { office.recipientCount == 2 })
        office.post(CartUpdated(items: 6))
        #expect(await eventually { printed.all.contains("cart: 6") })
        #expect(printed.all.contains("first: 5"))
        task.cancel()
        #expect(await eventually { office.recipientCount == 1 })
        office.setRecipientLimit(0, for: CartUpdated.self)
        office.register { (_: CartUpdated) in }
        #expect(printed.all.last == "2 recipients of CartUpdated")
    }

    @Test("Senders")
    func senders() {
        let office = PostOffice()
        let viewModel = CartViewModel()
        let store = Store()
        office.register(viewModel, CartViewModel.optionalSender)
        office.register(viewModel, CartViewModel.requiredSender)
        office.register(sender: store, viewModel, CartViewModel.anySender)  // only mail posted by exactly `store`
        office.post(CartUpdated(items: 3), sender: store)
        office.post(CartUpdated(items: 3))
        #expect(viewModel.log.all == ["optionalSender", "requiredSender", "anySender", "optionalSender"])
        let printed = Tally<String>()
        @Sendable func print(_ items: Any...) { printed.add(items.map { "\($0)" }.joined(separator: " ")) }
        struct CheckedOut: VerifiedMail { typealias RequiredSender = Store }  // not Mail: its own overloads
        office.register { (_: CheckedOut, store: Store) in print("paid at", store) }  // also (mail), () and sender:
        office.post(CheckedOut(), sender: store)  // a Store or subclass; nil or another type fails to compile
        #expect(printed.all.contains { $0.hasPrefix("paid at") })
    }

    @Test("The delivery tap")
    func tap() {
        let office = PostOffice()
        let tap = ClosureTap { event in
            switch event {
            case .registered(let info): print("registered", info.mailType, "at", info.site)
            case .posted(let posting): print("posted", posting.mailType, "to", posting.matched)
            case .delivered(let delivery): print("delivered in", delivery.duration, "ns after", delivery.wait, "ns")
            case .skipped, .unregistered, .pruned: break
            }
        }
        office.attach(tap)
        office.register { (_: CartUpdated) in }
        office.post(CartUpdated(items: 1))
        office.detach(tap)
        office.post(CartUpdated(items: 1))
        let lines = printed.all
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("registered CartUpdated at PonyExpressTests/ReadmeExamplesTests.swift:") == true)
        #expect(lines.dropFirst().first == "posted CartUpdated to 1")
        #expect(lines.last?.hasPrefix("delivered in ") == true)
    }
}
