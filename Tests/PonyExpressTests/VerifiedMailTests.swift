import Dispatch
import Foundation
import PonyExpress
import PonyTestSupport
import Testing

/// Immutable, and open for `Van`: a non-final class is `Sendable` only unchecked.
private class Courier: @unchecked Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private final class Van: Courier, @unchecked Sendable {}

private struct Parcel: VerifiedMail, Sendable {
    typealias RequiredSender = Courier
    var weight: Int
}

private class Crate: VerifiedMail {
    typealias RequiredSender = Courier
    let label: String
    init(_ label: String) { self.label = label }
}

private final class FragileCrate: Crate {}

private struct Note: Mail {}

private final class Desk: Sendable {
    let log: Tally<String>
    init(_ log: Tally<String>) { self.log = log }
    func take(_ parcel: Parcel, from courier: Courier) { log.add("mail+sender \(parcel.weight) \(courier.name)") }
    func take(_ parcel: Parcel) { log.add("mail \(parcel.weight)") }
    func ring() { log.add("no parameters") }
    func takeCrate(_ crate: Crate, from courier: Courier) { log.add("crate \(crate.label) \(courier.name)") }
}

@MainActor
private final class Screen {
    let log: Tally<String>
    init(_ log: Tally<String>) { self.log = log }
    func show(_ parcel: Parcel) {
        MainActor.assertIsolated()
        log.add("main \(parcel.weight)")
    }
    func show(_ parcel: Parcel, from courier: Courier) {
        MainActor.assertIsolated()
        log.add("main \(parcel.weight) \(courier.name)")
    }
}

@Suite("VerifiedMail: mail that names the sender it must be posted by", .tags(.concurrency))
struct VerifiedMailTests {
    @Test("Each method shape receives verified mail; a subclass of the required sender posts it too")
    func methodShapes() {
        let office = PostOffice()
        let log = Tally<String>()
        let desk = Desk(log)
        office.register(desk, Desk.take(_:from:))
        office.register(desk, Desk.take(_:))
        office.register(Parcel.self, desk, Desk.ring)
        office.post(Parcel(weight: 1), sender: Courier("ann"))
        office.post(Parcel(weight: 2), sender: Van("van"))
        #expect(
            log.all == [
                "mail+sender 1 ann", "mail 1", "no parameters", "mail+sender 2 van", "mail 2", "no parameters",
            ])
        withExtendedLifetime(desk) {}
    }

    @Test("Each block shape receives verified mail")
    func blockShapes() {
        let office = PostOffice()
        let log = Tally<String>()
        office.register { (parcel: Parcel, courier: Courier) in log.add("mail+sender \(parcel.weight) \(courier.name)")
        }
        office.register { (parcel: Parcel) in log.add("mail \(parcel.weight)") }
        office.register(Parcel.self) { log.add("no parameters") }
        office.post(Parcel(weight: 3), sender: Van("van"))
        #expect(log.all == ["mail+sender 3 van", "mail 3", "no parameters"])
    }

    @Test("The optional-sender shape, deprecated, still receives verified mail with its sender")
    @available(*, deprecated, message: "tests the deprecated (Mail, RequiredSender?) shape")
    func optionalSenderShape() {
        let office = PostOffice()
        let log = Tally<String>()
        final class Inbox: Sendable {
            let log: Tally<String>
            init(_ log: Tally<String>) { self.log = log }
            func take(_ parcel: Parcel, from courier: Courier?) { log.add("method \(courier?.name ?? "nil")") }
        }
        let inbox = Inbox(log)
        office.register(inbox, Inbox.take)
        office.register { (_: Parcel, courier: Courier?) in log.add("block \(courier?.name ?? "nil")") }
        office.post(Parcel(weight: 1), sender: Courier("ann"))
        #expect(log.all == ["method ann", "block ann"])
        #expect(
            office.recipients(of: Parcel.self).map(\.sender)
                == Array(repeating: .optional(TypeIdentity(Courier.self)), count: 2))
        withExtendedLifetime(inbox) {}
    }

    @Test("An exact sender filters verified mail to that one instance, for methods, blocks and streams")
    func exactSender() async {
        let office = PostOffice()
        let log = Tally<String>()
        let desk = Desk(log)
        let ann = Courier("ann")
        let van = Van("van")
        office.register(sender: ann, desk, Desk.take(_:from:))
        office.register(sender: van) { (parcel: Parcel) in log.add("block \(parcel.weight)") }
        let stream = office.mail(Parcel.self, sender: ann)
        office.post(Parcel(weight: 1), sender: ann)
        office.post(Parcel(weight: 2), sender: van)
        office.post(Parcel(weight: 3), sender: Courier("other"))
        #expect(log.all == ["mail+sender 1 ann", "block 2"])
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.weight == 1)
        #expect(office.recipients(of: Parcel.self).map(\.sender).contains(.exact(TypeIdentity(Van.self))))
        withExtendedLifetime((desk, ann, van)) {}
    }

    @Test("Verified mail is delivered on a registration's queue")
    func queuedDelivery() {
        let office = PostOffice()
        let queue = DispatchQueue(label: "verified.queue")
        let log = Tally<String>()
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "verified.queue")
        office.register(queue: queue) { (_: Parcel, courier: Courier) in
            log.add("\(courier.name) on \(DispatchQueue.getSpecific(key: key) ?? "another queue")")
        }
        office.post(Parcel(weight: 1), sender: Courier("ann"))
        #expect(waitUntil { log.count == 1 })
        #expect(log.all == ["ann on verified.queue"])
    }

    @Test("A @MainActor method for verified mail is delivered on the main queue, posted from another thread")
    @MainActor
    func mainActorMethods() async {
        let office = PostOffice()
        let log = Tally<String>()
        let screen = Screen(log)
        office.register(screen, Screen.show as (Screen) -> @MainActor (Parcel) -> Void)
        office.register(screen, Screen.show as (Screen) -> @MainActor (Parcel, Courier) -> Void)
        #expect(office.recipients(of: Parcel.self).allSatisfy { $0.queueLabel == DispatchQueue.main.label })
        await Task.detached { office.post(Parcel(weight: 6), sender: Van("van")) }.value
        #expect(await eventually { log.all == ["main 6", "main 6 van"] })
    }

    @Test("Class verified mail of a subclass reaches recipients of its superclass")
    func classHierarchy() {
        let office = PostOffice()
        let log = Tally<String>()
        let desk = Desk(log)
        office.register(desk, Desk.takeCrate)
        office.register { (crate: FragileCrate) in log.add("fragile \(crate.label)") }
        office.post(FragileCrate("glass"), sender: Courier("ann"))
        office.post(Crate("wood"), sender: Van("van"))
        #expect(log.all == ["crate glass ann", "fragile glass", "crate wood van"])
        withExtendedLifetime(desk) {}
    }

    @Test("Once, replay and recipient limits work for verified mail")
    func options() {
        let office = PostOffice()
        let log = Tally<String>()
        office.keepLastMail(Parcel.self)
        let ann = Courier("ann")
        office.post(Parcel(weight: 7), sender: ann)
        #expect(office.lastMail(Parcel.self)?.weight == 7)
        office.register(options: .replay) { (parcel: Parcel, courier: Courier) in
            log.add("replay \(parcel.weight) \(courier.name)")
        }
        office.register(options: .once) { (parcel: Parcel) in log.add("once \(parcel.weight)") }
        office.post(Parcel(weight: 8), sender: ann)
        office.post(Parcel(weight: 9), sender: ann)
        #expect(log.all == ["replay 7 ann", "replay 8 ann", "once 8", "replay 9 ann"])
        office.forgetLastMail(Parcel.self)
        #expect(office.lastMail(Parcel.self) == nil)

        office.setRecipientLimit(1, for: Parcel.self)
        office.register { (_: Parcel) in }
        #expect(office.recipients(of: Parcel.self).map(\.isOverLimit) == [false, true])
        #expect(office.recipientCount(of: Parcel.self) == 2)
    }

    @Test("A stream yields verified mail; a once stream ends after one")
    func streams() async {
        let office = PostOffice()
        let stream = office.mail(Parcel.self, options: .once)
        office.post(Parcel(weight: 4), sender: Van("van"))
        office.post(Parcel(weight: 5), sender: Van("van"))
        var received: [Int] = []
        for await parcel in stream { received.append(parcel.weight) }
        #expect(received == [4])
        #expect(office.recipientCount == 0)
    }

    @Test("Taps see verified mail: its registrations name the required sender, its posts the sender's type")
    func tapsSeeVerifiedMail() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        office.register { (_: Parcel) in }
        office.register { (_: FragileCrate, _: Courier) in }
        office.register { (_: Note) in }
        office.post(Parcel(weight: 1), sender: Van("van"))
        #expect(tap.registered.map(\.requiredSender) == [TypeIdentity(Courier.self), TypeIdentity(Courier.self), nil])
        #expect(tap.registered.map(\.isVerified) == [true, true, false])
        #expect(office.recipients().map(\.isVerified) == [true, true, false])
        #expect(tap.posted.map(\.senderType) == [TypeIdentity(Van.self)])
        #expect(tap.delivered.count == 1)

        // The mark travels with the registration's encoding; a `Mail` registration encodes no such field.
        let encoded = try JSONEncoder().encode(tap.registered)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.components(separatedBy: "requiredSender").count == 3)
        let decoded = try JSONDecoder().decode([RecipientInfo].self, from: encoded)
        #expect(decoded.map(\.requiredSender?.name) == ["Courier", "Courier", nil])
    }

    @Test("A released recipient of verified mail is pruned by the next post")
    func releasedRecipientPruned() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        var desk: Desk? = Desk(Tally())
        let id = office.register(sender: Courier("gone"), desk!, Desk.take(_:))
        desk = nil
        office.post(Parcel(weight: 1), sender: Courier("ann"))
        #expect(tap.pruned.map(\.recipient.id) == [id])
        #expect(tap.pruned.map(\.reason) == [.senderReleased])
        #expect(office.prune() == 0)
    }

    @Test("The example of VerifiedMail's documentation and of the DocC overview, as written there")
    func documentedExample() {
        let printed = Tally<String>()
        @Sendable func print(_ text: String) { printed.add(text) }
        final class Downloader {}
        struct DownloadFinished: VerifiedMail {
            typealias RequiredSender = Downloader
            var bytes: Int
        }
        let office = PostOffice()
        let downloader = Downloader()
        office.register { (mail: DownloadFinished, sender: Downloader) in
            print("\(mail.bytes) bytes")
        }
        office.post(DownloadFinished(bytes: 512), sender: downloader)
        #expect(printed.all == ["512 bytes"])
    }
}
