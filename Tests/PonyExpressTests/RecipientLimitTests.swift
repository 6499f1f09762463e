import PonyExpress
import PonyTestSupport
import Testing

private struct CartUpdated: Mail {}
private struct Other: Mail {}

@Suite("Recipient limits", .blocksItsThread)
struct RecipientLimitTests {
    @Test("Past its limit, each registration is reported to the handler and marked for taps, and still delivered")
    func limitPerType() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let breaches = Tally<RecipientLimitExceeded>()
        office.setRecipientLimit(2, for: CartUpdated.self)
        office.onRecipientLimitExceeded { breaches.add($0) }
        let delivered = Tally<Int>()
        for index in 0..<4 { office.register { (_: CartUpdated) in delivered.add(index) } }
        office.register { (_: Other) in }
        #expect(breaches.all.map(\.count) == [3, 4])
        #expect(breaches.all.allSatisfy { $0.limit == 2 && $0.recipient.mailType == TypeIdentity(CartUpdated.self) })
        #expect(tap.registered.map(\.isOverLimit) == [false, false, true, true, false])
        #expect(breaches.all.map(\.recipient.id) == tap.registered.filter(\.isOverLimit).map(\.id))
        office.post(CartUpdated())
        #expect(delivered.all == [0, 1, 2, 3])
    }

    @Test("A default limit covers every type without its own; removing a limit stops the reports")
    func defaultLimit() {
        let office = PostOffice()
        let breaches = Tally<String>()
        office.onRecipientLimitExceeded { breaches.add($0.recipient.mailType.name) }
        office.setDefaultRecipientLimit(1)
        office.setRecipientLimit(3, for: CartUpdated.self)
        for _ in 0..<3 { office.register { (_: CartUpdated) in } }
        office.register { (_: Other) in }
        office.register { (_: Other) in }
        #expect(breaches.all.count == 1)
        office.setDefaultRecipientLimit(nil)
        office.register { (_: Other) in }
        #expect(breaches.all.count == 1)
    }

    @Test("Without a handler, a limit only marks the registration")
    func markOnly() {
        let office = PostOffice()
        office.setRecipientLimit(0, for: CartUpdated.self)
        office.register { (_: CartUpdated) in }
        #expect(office.recipients(of: CartUpdated.self).map(\.isOverLimit) == [true])
    }
}

@Suite("Recipient limits under concurrent registration", .blocksItsThread, .tags(.concurrency))
struct RecipientLimitConcurrencyTests {
    @Test("8 threads register 50 each past a limit of 100: exactly 300 reports, each with its own count")
    func concurrentBreaches() {
        let office = PostOffice()
        let breaches = Tally<Int>()
        office.setRecipientLimit(100, for: CartUpdated.self)
        office.onRecipientLimitExceeded { breaches.add($0.count) }
        #expect(concurrently(8) { _ in for _ in 0..<50 { office.register { (_: CartUpdated) in } } })
        #expect(breaches.all.sorted() == Array(101...400))
    }
}
