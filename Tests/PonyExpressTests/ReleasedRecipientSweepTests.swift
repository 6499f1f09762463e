import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

private struct NeverPosted: Mail {}

private struct AlsoNeverPosted: Mail {}

private struct Posted: Mail {}

private final class Screen: Sendable {
    func logout(_: NeverPosted) {}
    func close(_: AlsoNeverPosted) {}
    func receive(_: Posted) {}
}

private final class Sender {}

/// Counts what the post office holds, released recipients included (``PostOffice/recipientCount`` counts the
/// live ones only), from its tap's events.
private final class Held: DeliveryTap {
    let registered = Atomic<Int>(0)
    let removed = Atomic<Int>(0)
    let prunedForSender = Atomic<Int>(0)
    /// Each id removed, as often as it was reported removed.
    let removedIds = Tally<RecipientId>()
    var count: Int { registered.load(ordering: .relaxed) - removed.load(ordering: .relaxed) }
    var wantsTimings: Bool { false }
    func receive(_ event: TapEvent) {
        switch event {
        case .registered: registered.add(1, ordering: .relaxed)
        case .unregistered(let unregistration):
            removed.add(1, ordering: .relaxed)
            removedIds.add(unregistration.id)
        case .pruned(let prune):
            removed.add(1, ordering: .relaxed)
            removedIds.add(prune.recipient.id)
            if prune.reason == .senderReleased { prunedForSender.add(1, ordering: .relaxed) }
        default: break
        }
    }
}

/// Released recipients of a mail type that is never posted: no post prunes them, so `register` sweeps a growing
/// bucket a few registrations at a time (issue 39: 200,000 screens registered for `LogoutEvent`, died without
/// unregistering, and stayed counted as live).
@Suite struct ReleasedRecipientSweepTests {
    @Test("10,000 screens registered for a type never posted, each released: the post office keeps few of them")
    func releasedScreensArePrunedWithoutAPost() {
        let office = PostOffice()
        let held = Held()
        office.attach(held)
        var most = 0
        for _ in 0..<10_000 {
            office.register(Screen(), Screen.logout)
            most = max(most, held.count)
        }
        // The bucket is swept from 64 registrations on, eight a register: it never holds many more released ones.
        #expect(most <= 64 + 8, "the post office held \(most) registrations of released screens")
        #expect(held.registered.load(ordering: .relaxed) == 10_000)
        #expect(held.removed.load(ordering: .relaxed) >= 10_000 - 64)
        #expect(held.prunedForSender.load(ordering: .relaxed) == 0)
    }

    @Test("Live recipients among released ones are never pruned, and the released ones are")
    func liveOnesStay() {
        let office = PostOffice()
        let held = Held()
        office.attach(held)
        let live = (0..<1_000).map { _ in Screen() }
        let ids = live.map { office.register($0, Screen.logout) }
        var most = 0
        for _ in 0..<20_000 {
            office.register(Screen(), Screen.logout)
            most = max(most, held.count)
        }
        #expect(Set(office.recipients(of: NeverPosted.self).map(\.id)) == Set(ids))
        #expect(most <= 2 * 1_000 + 1_000 / 4 + 64, "the post office held \(most) for 1,000 live screens")
        withExtendedLifetime(live) {}
    }

    @Test("A registration whose exact sender was released is pruned as such")
    func releasedExactSenders() {
        let office = PostOffice()
        let held = Held()
        office.attach(held)
        for _ in 0..<1_000 { office.register(sender: Sender()) { (_: NeverPosted) in } }
        #expect(held.count <= 64 + 8)
        #expect(held.prunedForSender.load(ordering: .relaxed) >= 1_000 - 64 - 8)
    }

    @Test("prune(checking:) checks at most that many registrations, goes on where it stopped, round every type")
    func pruneCheckingWalksRoundEveryType() {
        let office = PostOffice()
        let held = Held()
        office.attach(held)
        let live = Screen()
        // 30 of each type: below the size from which register sweeps, so only prune(checking:) reclaims them.
        for _ in 0..<30 {
            office.register(Screen(), Screen.logout)
            office.register(Screen(), Screen.close)
        }
        office.register(live, Screen.logout)
        office.register(live, Screen.close)
        #expect(held.count == 62)
        #expect(office.prune(checking: 0) == 0)
        #expect(office.prune(checking: 20) == 20)
        #expect(held.count == 42)
        // The rest of the first type (10 released, then the live one) and 9 of the second.
        #expect(office.prune(checking: 20) == 19)
        #expect(office.prune(checking: 22) == 21)
        #expect(held.count == 2)
        // Round again, each registration checked once a call however large the count: only the live ones stay.
        #expect(office.prune(checking: 1_000) == 0)
        #expect(office.recipients().count == 2)
        #expect(held.registered.load(ordering: .relaxed) - held.removed.load(ordering: .relaxed) == 2)
        withExtendedLifetime(live) {}
    }

    @Test("prune(checking:) on an empty post office, and with only live recipients, prunes nothing")
    func pruneCheckingFindsNothingToPrune() {
        let office = PostOffice()
        #expect(office.prune(checking: 100) == 0)
        let screens = (0..<10).map { _ in Screen() }
        for screen in screens { office.register(screen, Screen.logout) }
        #expect(office.prune(checking: 100) == 0)
        #expect(office.prune(checking: 3) == 0)
        #expect(office.recipients().count == 10)
        withExtendedLifetime(screens) {}
    }
}

@Suite("prune(checking:) beside posts, registers and unregisters", .blocksItsThread, .tags(.concurrency))
struct PruneCheckingConcurrencyTests {
    @Test("Checks on one thread while three register, release, post and unregister: each removal reported once")
    func checksBesideTraffic() {
        let office = PostOffice()
        let held = Held()
        office.attach(held)
        let kept = Tally<Int>()
        let othersDone = Atomic<Int>(0)
        let finished = concurrently(4) { thread in
            defer { if thread != 0 { othersDone.add(1, ordering: .releasing) } }
            switch thread {
            case 0:
                // Checks for as long as the others run, at least 100 times.
                var checks = 0
                while othersDone.load(ordering: .acquiring) < 3 || checks < 100 {
                    office.prune(checking: 64)
                    checks += 1
                }
            case 1:
                // Half the screens stay alive to the end, half die at once.
                var alive: [Screen] = []
                for index in 0..<2_000 {
                    let screen = Screen()
                    if index.isMultiple(of: 2) {
                        office.register(screen, Screen.logout)
                    } else {
                        office.register(screen, Screen.close)
                    }
                    if index.isMultiple(of: 4) { alive.append(screen) }
                }
                kept.add(alive.count)
                withExtendedLifetime(alive) {}
            case 2:
                for _ in 0..<1_000 {
                    office.register(Screen(), Screen.receive)
                    office.post(Posted())
                }
            default:
                for _ in 0..<1_000 { office.unregister(office.register { (_: NeverPosted) in }) }
            }
        }
        #expect(finished, "a thread did not finish within the deadline")
        // What the threads left released, the last checks find: every registration of a released screen goes.
        while office.prune(checking: 1_000) > 0 {}
        #expect(office.prune() == 0)
        #expect(office.recipientCount == 0, "the kept screens died with their thread's array")
        let ids = held.removedIds.all
        #expect(ids.count == Set(ids).count, "an id was reported removed twice")
        #expect(held.registered.load(ordering: .relaxed) == 4_000)
        #expect(held.count == 0)
        #expect(kept.all == [500])
    }
}
