import Dispatch
import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

private struct Tick: Mail {}
private struct Tock: Mail {}
private class Bell: Mail, @unchecked Sendable {}
private final class LoudBell: Bell, @unchecked Sendable {}

/// Counts without a lock, so that counting does not serialise the posting threads.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// Counts its own releases: what a handler captures, which the post office must let go of.
private final class Canary: Sendable {
    let released: Counter
    init(_ released: Counter) { self.released = released }
    deinit { released.increment() }
}

/// Set once `unregister` returned; a handler that sees it set ran after `unregister` returned.
private final class Retirement: Sendable {
    let isUnregistered = Atomic<Bool>(false)
}

private final class Listener: Sendable {
    let heard: Counter
    init(_ heard: Counter) { self.heard = heard }
    func hear(_: Tick) { heard.increment() }
}

/// Posts read their route without the post office's lock (see the Performance article); these tests race those reads
/// against every change that replaces a route, and check that what a route holds is released when no post needs it.
@Suite(
    "Routes read without the lock: posts racing the changes that replace routes", .blocksItsThread, .tags(.concurrency))
struct RouteSlotTests {
    @Test("6 threads post while 4 register, unregister, release objects and attach taps: counts exact, no late handler")
    func postsRaceRouteChanges() {
        let office = PostOffice()
        let steady = Counter()
        office.register { (_: Tick) in steady.increment() }
        office.register { (_: Tock) in steady.increment() }
        let late = Counter()
        let created = Counter()
        let released = Counter()
        let postsPerThread = 50_000
        let finished = concurrently(10, within: 240) { index in
            switch index {
            case 0..<6:
                for round in 0..<postsPerThread {
                    if round.isMultiple(of: 3) { office.post(Tock()) } else { office.post(Tick()) }
                }
            case 6, 7:
                // Blocks that capture an object, unregistered while the posts run.
                for round in 0..<3_000 {
                    let retirement = Retirement()
                    let canary = Canary(released)
                    created.increment()
                    let handler: @Sendable () -> Void = {
                        withExtendedLifetime(canary) {}
                        if retirement.isUnregistered.load(ordering: .acquiring) { late.increment() }
                    }
                    let id =
                        round.isMultiple(of: 2)
                        ? office.register { (_: Tick) in handler() } : office.register { (_: Tock) in handler() }
                    office.unregister(id)
                    retirement.isUnregistered.store(true, ordering: .releasing)
                }
            case 8:
                // Objects released without unregistering: posts prune them.
                let heard = Counter()
                for _ in 0..<3_000 {
                    let listener = Listener(heard)
                    office.register(listener, Listener.hear)
                    office.post(Tick())
                }
            default:
                // Every route is replaced when a tap comes or goes.
                for _ in 0..<500 {
                    let tap = ClosureTap { _ in }
                    office.attach(tap)
                    office.detach(tap)
                }
            }
        }
        #expect(finished)
        #expect(steady.count == 6 * postsPerThread + 3_000)
        #expect(late.count == 0)
        // A route retired while a post read it is freed by the next post or change.
        office.post(Tick())
        #expect(released.count == created.count)
        #expect(office.recipientCount == 2)
    }

    @Test("A block that unregisters itself during a post is released when the post returns")
    func selfUnregisteringBlockIsReleasedAfterThePost() {
        let office = PostOffice()
        let released = Counter()
        let steady = Counter()
        office.register { (_: Tick) in steady.increment() }
        let id = Locked<RecipientId?>(nil)
        do {
            let canary = Canary(released)
            let deliveries = Counter()
            id.withLock { registered in
                registered = office.register { [weak office] (_: Tick) in
                    withExtendedLifetime(canary) {}
                    deliveries.increment()
                    // The first post builds the route under the lock; the second reads it without the lock, and
                    // this handler retires it while that post reads it.
                    if deliveries.count == 2, let own = id.withLock({ $0 }) { office?.unregister(own) }
                }
            }
        }
        office.post(Tick())
        #expect(released.count == 0)
        office.post(Tick())
        #expect(steady.count == 2)
        #expect(released.count == 1)
        office.post(Tick())
        #expect(steady.count == 3)
    }

    @Test("A post office released while threads remember its routes releases them; a new one is not confused with it")
    func releasedOfficeReleasesItsRoutes() {
        let released = Counter()
        for round in 0..<1_000 {
            let heard = Counter()
            do {
                let office = PostOffice()
                let canary = Canary(released)
                office.register { (_: Tick) in
                    withExtendedLifetime(canary) {}
                    heard.increment()
                }
                office.post(Tick())
                office.post(Tick())
            }
            #expect(released.count == round + 1)
            // A new post office, perhaps at the old one's address, delivers only to its own recipients.
            let office = PostOffice()
            office.post(Tick())
            office.register { (_: Tick) in heard.increment() }
            office.post(Tick())
            office.post(Tick())
            #expect(heard.count == 4)
        }
    }

    @Test("Mail of a subclass posted as its superclass, and mail kept for replay, go the way with the lock")
    func subclassAndKeptMail() {
        let office = PostOffice()
        let bells = Counter()
        let loud = Counter()
        office.register { (_: Bell) in bells.increment() }
        office.register { (_: LoudBell) in loud.increment() }
        let asBell: Bell = LoudBell()
        for _ in 0..<3 {
            office.post(Bell())
            office.post(asBell)
        }
        #expect(bells.count == 6)
        #expect(loud.count == 3)
        office.keepLastMail(Bell.self)
        office.post(Bell())
        office.post(Bell())
        #expect(office.lastMail(Bell.self) != nil)
        #expect(bells.count == 8)
    }

    @Test("Routes change while handlers on 4 threads post nested mail of the same type")
    func nestedPostsDuringChanges() {
        let office = PostOffice()
        let outer = Counter()
        let inner = Counter()
        // Weakly: a block that holds its own post office strongly would keep both alive (LeakSanitizer says so).
        office.register { [weak office] (_: Tick) in
            outer.increment()
            office?.post(Tock())
        }
        office.register { (_: Tock) in inner.increment() }
        let finished = concurrently(6, within: 120) { index in
            if index < 4 {
                for _ in 0..<20_000 { office.post(Tick()) }
            } else {
                for _ in 0..<2_000 {
                    office.unregister(office.register { (_: Tock) in })
                    office.unregister(office.register { (_: Tick) in })
                }
            }
        }
        #expect(finished)
        #expect(outer.count == 80_000)
        #expect(inner.count == 80_000)
    }
}
