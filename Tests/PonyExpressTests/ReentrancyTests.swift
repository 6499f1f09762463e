import PonyExpress
import PonyTestSupport
import Testing

private struct Depth: Mail { var level: Int }
private struct Ping: Mail {}

@Suite("Re-entrancy: handlers that post, register and unregister", .tags(.concurrency))
struct ReentrancyTests {
    @Test("Posting 100 levels deep from handlers")
    func deepPosting() {
        let office = PostOffice()
        let log = Tally<Int>()
        office.register { [weak office] (mail: Depth) in
            log.add(mail.level)
            if mail.level < 100 { office?.post(Depth(level: mail.level + 1)) }
        }
        #expect(finishes { office.post(Depth(level: 1)) })
        #expect(log.all == Array(1...100))
    }

    @Test("A recipient registered during a post does not get that post, but gets the next")
    func registerDuringPost() {
        let office = PostOffice()
        let log = Tally<String>()
        let registered = Locked(false)
        office.register { [weak office] (_: Ping) in
            log.add("first")
            let shouldRegister = registered.withLock { done in
                defer { done = true }
                return !done
            }
            if shouldRegister { office?.register { (_: Ping) in log.add("late") } }
        }
        office.post(Ping())
        #expect(log.all == ["first"])
        office.post(Ping())
        #expect(log.all == ["first", "first", "late"])
    }

    @Test("A recipient unregistered during a post does not get it if its turn had not come")
    func unregisterDuringPost() {
        let office = PostOffice()
        let log = Tally<String>()
        let victim = Locked<RecipientId?>(nil)
        office.register { [weak office] (_: Ping) in
            log.add("first")
            if let id = victim.withLock({ $0 }) { office?.unregister(id) }
        }
        victim.withLock { $0 = office.register { (_: Ping) in log.add("victim") } }
        office.post(Ping())
        #expect(log.all == ["first"])
    }

    @Test("A recipient unregistering itself gets the current post and no later one")
    func unregisterSelf() {
        let office = PostOffice()
        let log = Tally<String>()
        let me = Locked<RecipientId?>(nil)
        me.withLock { id in
            id = office.register { (_: Ping) in
                log.add("self")
                if let id = me.withLock({ $0 }) { office.unregister(id) }
            }
        }
        office.register { (_: Ping) in log.add("after") }
        office.post(Ping())
        office.post(Ping())
        #expect(log.all == ["self", "after", "after"])
    }

    @Test("A handler dropping the last strong reference to its own recipient")
    func dropOwnRecipient() {
        // One thread: the test's. Unchecked, because the handler it proves must drop the last reference.
        final class Owner: @unchecked Sendable {
            var recipient: Recipient?
        }
        final class Recipient: Sendable {
            let owner: Owner
            let log: Tally<String>
            init(owner: Owner, log: Tally<String>) {
                self.owner = owner
                self.log = log
            }
            func receive(_: Ping) {
                log.add("received")
                owner.recipient = nil  // the last strong reference to self goes away mid-delivery
                log.add("still running")
            }
        }
        let office = PostOffice()
        let log = Tally<String>()
        let owner = Owner()
        weak var weakRecipient: Recipient?
        do {
            let recipient = Recipient(owner: owner, log: log)
            owner.recipient = recipient
            weakRecipient = recipient
            office.register(recipient, Recipient.receive)
        }
        #expect(finishes { office.post(Ping()) })
        #expect(log.all == ["received", "still running"])
        #expect(weakRecipient == nil)
        office.post(Ping())
        #expect(log.all == ["received", "still running"])
        #expect(office.recipientCount == 0)
    }

    @Test("A handler may attach a tap and call introspection without deadlocking")
    func introspectionInHandler() {
        let office = PostOffice()
        let counts = Tally<Int>()
        office.register { [weak office] (_: Ping) in
            counts.add(office?.recipientCount(of: Ping.self) ?? -1)
            office?.attach(RecordingTap())
        }
        #expect(finishes { office.post(Ping()) })
        #expect(counts.all == [1])
    }
}
