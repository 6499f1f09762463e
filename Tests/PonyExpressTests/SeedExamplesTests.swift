import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

// The examples of the original PonyExpress README and DocC page, as written there (the `func init()` typo aside),
// with the changes Swift 6 mode asks for (README's migration note: a recipient is `final` and `Sendable`, or
// `@MainActor`), each checked for the behaviour the text promises. As written, in Swift 5 mode, they type-check
// unchanged: `CompileFailureTests` proves it. They use `PostOffice.default`, as the seeds do; every test
// has its own mail types, so tests running in parallel cannot see each other's mail.

private let quickStartLog = Tally<Int>()

private struct ExampleNotification: Mail {
    var info: Int
    var other: Float
}

private final class ExampleRecipient: Sendable {
    init() {
        PostOffice.default.register(self, ExampleRecipient.receive)
    }

    func receive(notification: ExampleNotification) {
        quickStartLog.add(notification.info)
    }
}

private let enumLog = Tally<String>()

private enum ExampleEnum: Mail {
    case fumble
    case mumble(bumble: Int)
}

private let senderLog = Tally<String>()

private class ExampleSender {}

private struct SenderNotification: Mail {
    var info: Int
    var other: Float
}

private final class SenderRecipient: Sendable {
    init() {
        PostOffice.default.register(self, SenderRecipient.receiveWithOptionalSender)
        PostOffice.default.register(self, SenderRecipient.receiveWithSender)
        PostOffice.default.register(self, SenderRecipient.receiveWithoutSender)
    }

    // An optional sender will require that the sender of the notification either
    // a) match the type of the `sender`, or b) be `nil`
    func receiveWithOptionalSender(notification: SenderNotification, sender: ExampleSender?) {
        senderLog.add("optional")
    }

    // An non-optional sender will require that the sender of the notification either match
    // the `sender` type
    func receiveWithSender(notification: SenderNotification, sender: ExampleSender) {
        senderLog.add("required")
    }

    // Omitting a `sender` parameter will receive notifications for senders of any type, even nil senders
    func receiveWithoutSender(notification: SenderNotification) {
        senderLog.add("without")
    }
}

private let exactLog = Tally<String>()

private struct ExactNotification: Mail {
    var info: Int
    var other: Float
}

private final class ExactRecipient: Sendable {
    func receiveWithSender(notification: ExactNotification, sender: ExampleSender) {
        exactLog.add("with")
    }

    func receiveWithoutSender(notification: ExactNotification) {
        exactLog.add("without")
    }
}

private let blockLog = Tally<Int>()

private struct BlockNotification: Mail {
    var info: Int
}

@MainActor
private final class MyClass {
    var token: RecipientId?

    init() {
        token = PostOffice.default.register { [weak self] (notification: BlockNotification) in
            blockLog.add(notification.info + (self == nil ? 1000 : 0))
        }
    }
}

private struct QueueNotification: Mail {}

private final class QueueRecipient: Sendable {
    let done = DispatchSemaphore(value: 0)
    let onQueue = Tally<Bool>()

    func receive(notification: QueueNotification) {
        onQueue.add(DispatchQueue.getSpecific(key: seedQueueKey) == true)
        done.signal()
    }
}

private let seedQueueKey = DispatchSpecificKey<Bool>()

private struct UnregisterNotification: Mail {}

private final class UnregisterRecipient: MailRecipient, Sendable {
    let received = Tally<Int>()
    func receive(mail: UnregisterNotification) { received.add(1) }
}

@Suite("The seed documents' examples", .blocksItsThread, .tags(.concurrency))
struct SeedExamplesTests {
    @Test("Quick start: an object registers a method and receives posted structs")
    func quickStart() {
        let recipient = ExampleRecipient()
        PostOffice.default.post(ExampleNotification(info: 12, other: 15))
        #expect(quickStartLog.all == [12])
        withExtendedLifetime(recipient) {}
    }

    @Test("Posting an enum to a registered block")
    func enumMail() {
        let id = PostOffice.default.register { (mail: ExampleEnum) in
            switch mail {
            case .fumble: enumLog.add("fumble")
            case .mumble(let bumble): enumLog.add("mumble \(bumble)")
            }
        }
        PostOffice.default.post(ExampleEnum.mumble(bumble: 12))
        PostOffice.default.post(ExampleEnum.fumble)
        PostOffice.default.unregister(id)
        #expect(enumLog.all == ["mumble 12", "fumble"])
    }

    @Test("Senders: optional, required and absent sender parameters")
    func senders() {
        let recipient = SenderRecipient()
        let sender = ExampleSender()
        PostOffice.default.post(SenderNotification(info: 1, other: 1), sender: sender)
        #expect(senderLog.all == ["optional", "required", "without"])
        PostOffice.default.post(SenderNotification(info: 2, other: 2))
        #expect(senderLog.all == ["optional", "required", "without", "optional", "without"])
        withExtendedLifetime(recipient) {}
    }

    @Test("Recipients can register for one exact-match sender")
    func exactSender() {
        let sender = ExampleSender()
        let recipient = ExactRecipient()
        PostOffice.default.register(sender: sender, recipient, ExactRecipient.receiveWithSender)
        PostOffice.default.register(sender: sender, recipient, ExactRecipient.receiveWithoutSender)
        PostOffice.default.post(ExactNotification(info: 12, other: 15), sender: sender)
        PostOffice.default.post(ExactNotification(info: 12, other: 15), sender: ExampleSender())
        PostOffice.default.post(ExactNotification(info: 12, other: 15))
        #expect(exactLog.all == ["with", "without"])
        withExtendedLifetime((sender, recipient)) {}
    }

    @Test("Option 2: a block is held strongly until unregistered")
    @MainActor
    func block() throws {
        var object: MyClass? = MyClass()
        let token = try #require(object?.token)
        PostOffice.default.post(BlockNotification(info: 1))
        object = nil
        // The block outlives the object that registered it (it captured self weakly)...
        PostOffice.default.post(BlockNotification(info: 2))
        // ... until it is unregistered.
        PostOffice.default.unregister(token)
        PostOffice.default.post(BlockNotification(info: 3))
        #expect(blockLog.all == [1, 1002])
    }

    @Test("DispatchQueues: a queued recipient is called asynchronously on its queue")
    func queue() {
        let myDispatchQueue = DispatchQueue(label: "seed.queue")
        myDispatchQueue.setSpecific(key: seedQueueKey, value: true)
        let recipient = QueueRecipient()
        PostOffice.default.register(queue: myDispatchQueue, recipient, QueueRecipient.receive)
        PostOffice.default.post(QueueNotification())
        #expect(recipient.done.wait(timeout: .now() + 5) == .success)
        #expect(recipient.onQueue.all == [true])
    }

    @Test("Unregistering: register(recipient) returns an id that unregister takes")
    func unregistering() {
        let recipient = UnregisterRecipient()
        let id = PostOffice.default.register(recipient)
        PostOffice.default.post(UnregisterNotification())
        PostOffice.default.unregister(id)
        PostOffice.default.post(UnregisterNotification())
        #expect(recipient.received.count == 1)
    }
}
