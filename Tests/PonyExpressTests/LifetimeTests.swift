import PonyExpress
import PonyTestSupport
import Testing

private struct Ping: Mail {}

private final class Recipient: Sendable {
    let log: Tally<String>
    init(log: Tally<String>) { self.log = log }
    func receive(_: Ping) { log.add("object") }
}

private final class Witness: Sendable {
    let onDeinit: Tally<String>
    let name: String
    init(_ onDeinit: Tally<String>, name: String = "freed") {
        self.onDeinit = onDeinit
        self.name = name
    }
    deinit { onDeinit.add(name) }
}

private final class Sender {}

private final class OtherSender {}

private final class FilteringRecipient: Sendable {
    let log: Tally<String>
    init(log: Tally<String>) { self.log = log }
    func receive(_: Ping, from _: Sender) { log.add("typed") }
}

@Suite("Lifetimes: weak recipients, strong blocks, pruning", .tags(.concurrency))
struct LifetimeTests {
    @Test("An object recipient is held weakly; once released it gets nothing and is pruned and reported")
    func weakRecipientPruned() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let log = Tally<String>()
        var recipient: Recipient? = Recipient(log: log)
        weak let weakRecipient = recipient
        let id = office.register(recipient!, Recipient.receive)
        office.post(Ping())
        recipient = nil
        #expect(weakRecipient == nil)
        office.post(Ping())
        #expect(log.all == ["object"])
        #expect(office.recipientCount == 0)
        let prune = try #require(tap.pruned.first)
        #expect(tap.pruned.count == 1)
        #expect(prune.recipient.id == id)
        #expect(prune.reason == .recipientReleased)
        #expect(prune.recipient.kind == .object(TypeIdentity(Recipient.self)))
        #expect(prune.recipient.site.fileID.hasSuffix("LifetimeTests.swift"))
        #expect(prune.time >= prune.recipient.registeredAt)
        // Pruned once: later posts find nothing to prune.
        office.post(Ping())
        #expect(tap.pruned.count == 1)
    }

    @Test("A block is held strongly until unregistered, then released")
    func blockHeldUntilUnregistered() {
        let office = PostOffice()
        let freed = Tally<String>()
        var witness: Witness? = Witness(freed)
        let id = office.register { [witness] (_: Ping) in _ = witness }
        witness = nil
        #expect(freed.all.isEmpty)
        office.post(Ping())
        #expect(freed.all.isEmpty)
        office.unregister(id)
        #expect(freed.all == ["freed"])
    }

    @Test("Blocks unregistered in any order are each freed by their unregister, and the others still receive mail")
    func blocksFreedInAnyOrder() {
        // The bucket holds each registration's one reference and the id table none: an unregister that dropped the
        // wrong one, or dropped it twice, shows here as a block freed early, late or never (and under ASan as a
        // use after free).
        let office = PostOffice()
        let freed = Tally<String>()
        let delivered = Tally<Int>()
        var ids: [(index: Int, id: RecipientId)] = []
        for index in 0..<64 {
            let witness = Witness(freed, name: "\(index)")
            ids.append(
                (
                    index,
                    office.register { [witness] (_: Ping) in
                        _ = witness; delivered.add(index)
                    }
                ))
        }
        var order = SystemRandomNumberGenerator()
        ids.shuffle(using: &order)
        for (count, entry) in ids.enumerated() {
            office.unregister(entry.id)
            office.unregister(entry.id)  // again: ignored
            #expect(freed.all == ids.prefix(count + 1).map { "\($0.index)" }, "its own block, and only it")
            #expect(office.recipientCount(of: Ping.self) == 63 - count)
            if count == 31 {
                // Half are gone: a post reaches exactly the other half, each once.
                office.post(Ping())
                #expect(delivered.all.sorted() == ids.suffix(32).map(\.index).sorted())
            }
        }
        office.post(Ping())
        #expect(delivered.all.count == 32, "none after the last unregister")
        #expect(office.recipientCount == 0)
    }

    @Test("A released object's registration is pruned and freed, with the blocks around it untouched")
    func prunedAmongBlocks() {
        let office = PostOffice()
        let log = Tally<String>()
        let freed = Tally<String>()
        // Only the block holds its witness.
        let first = office.register { [witness = Witness(freed)] (_: Ping) in
            _ = witness
            log.add("first")
        }
        var recipient: Recipient? = Recipient(log: log)
        office.register(recipient!, Recipient.receive)
        office.register { (_: Ping) in log.add("last") }
        recipient = nil
        office.post(Ping())
        office.post(Ping())
        #expect(log.all == ["first", "last", "first", "last"])
        #expect(office.recipientCount(of: Ping.self) == 2)
        #expect(freed.all.isEmpty, "the first block is held until it is unregistered")
        office.unregister(first)
        #expect(freed.all == ["freed"], "and freed by its unregister, the pruned registration before it gone")
        #expect(office.recipientCount(of: Ping.self) == 1)
    }

    @Test("An exact sender is held weakly; once released its registrations are pruned")
    func exactSenderReleased() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let log = Tally<String>()
        var sender: Sender? = Sender()
        weak let weakSender = sender
        office.register(sender: sender!) { (_: Ping) in log.add("block") }
        office.post(Ping(), sender: sender)
        sender = nil
        #expect(weakSender == nil)
        office.post(Ping())
        #expect(log.all == ["block"])
        #expect(tap.pruned.map(\.reason) == [.senderReleased])
        #expect(office.recipientCount == 0)
    }

    @Test("10,000 released recipients: nothing delivered, all pruned and reported")
    func manyReleased() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let log = Tally<String>()
        var recipients = (0..<10_000).map { _ in Recipient(log: log) }
        for recipient in recipients { office.register(recipient, Recipient.receive) }
        recipients.removeAll()
        office.post(Ping())
        #expect(log.count == 0)
        #expect(tap.pruned.count == 10_000)
        #expect(Set(tap.pruned.map(\.recipient.id)).count == 10_000)
        #expect(office.recipientCount == 0)
    }

    @Test("prune() sweeps released recipients of types that are not posted")
    func sweep() {
        let office = PostOffice()
        let log = Tally<String>()
        var recipient: Recipient? = Recipient(log: log)
        office.register(recipient!, Recipient.receive)
        #expect(office.recipients().count == 1)
        recipient = nil
        #expect(office.recipients().isEmpty)
        #expect(office.prune() == 1)
        #expect(office.prune() == 0)
    }

    @Test("Releasing a post office frees its registrations and what their blocks captured")
    func officeReleased() {
        let freed = Tally<String>()
        var office: PostOffice? = PostOffice()
        weak let weakOffice = office
        var witness: Witness? = Witness(freed)
        office!.register { [witness] (_: Ping) in _ = witness }
        witness = nil
        #expect(freed.all.isEmpty)
        office = nil
        #expect(weakOffice == nil)
        #expect(freed.all == ["freed"])
    }

    @Test(
        "A released recipient is pruned by a post its sender filter refuses, exact sender or sender type",
        arguments: [true, false])
    func releasedRecipientPrunedByRefusedPost(exact: Bool) throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let log = Tally<String>()
        let sender = Sender()
        var recipient: FilteringRecipient? = FilteringRecipient(log: log)
        weak let weakRecipient = recipient
        let id =
            exact
            ? office.register(sender: sender, recipient!, FilteringRecipient.receive)
            : office.register(recipient!, FilteringRecipient.receive)
        recipient = nil
        #expect(weakRecipient == nil)
        // Only mail the filter refuses: another sender's, and no sender at all.
        office.post(Ping(), sender: OtherSender())
        office.post(Ping())
        #expect(log.all.isEmpty)
        let prune = try #require(tap.pruned.first)
        #expect(tap.pruned.count == 1)
        #expect(prune.recipient.id == id)
        #expect(prune.reason == .recipientReleased)
        // Out of the table: nothing left to sweep, and the second post matched no one.
        #expect(office.prune() == 0)
        #expect(tap.posted.map(\.matched) == [1, 0])
        #expect(!tap.skipped.contains { $0.recipient == id })
        withExtendedLifetime(sender) {}
    }
}
