import Dispatch
import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

private struct Tick: Mail {}
private struct Churn: Mail {}

/// Counts deliveries without a lock, so that counting does not serialise the posting threads.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

@Suite("Concurrency: many threads posting, registering and unregistering", .blocksItsThread, .tags(.concurrency))
struct ConcurrencyTests {
    @Test("8 threads x 100,000 posts while 2 threads register and unregister: every steady recipient counts 800,000")
    func stress() {
        let office = PostOffice()
        let steady = (0..<3).map { _ in Counter() }
        for counter in steady { office.register { (_: Tick) in counter.increment() } }
        let startCount = office.recipientCount
        let postsPerThread = 100_000
        let finished = concurrently(10, within: 120) { index in
            if index < 8 {
                for _ in 0..<postsPerThread { office.post(Tick()) }
            } else {
                for round in 0..<2_000 {
                    let id =
                        round.isMultiple(of: 2)
                        ? office.register { (_: Tick) in } : office.register { (_: Churn) in }
                    office.unregister(id)
                }
            }
        }
        #expect(finished)
        for counter in steady { #expect(counter.count == 8 * postsPerThread) }
        #expect(office.recipientCount == startCount)
    }

    @Test("A handler that takes a lock the poster holds does not deadlock (RxSwift#2713)")
    func lockHeldByPoster() {
        let office = PostOffice()
        let appLock = Lock()
        let log = Tally<String>()
        let queue = DispatchQueue(label: "other")
        office.register(queue: queue) { (_: Tick) in
            appLock.withLock { log.add("queued handler") }
        }
        office.register { [weak office] (_: Tick) in
            guard let office else { return }
            // Another thread registers while this handler runs: the post office lock must not be held here.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                office.register { (_: Churn) in }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 5) == .success)
        }
        #expect(
            finishes {
                appLock.withLock { office.post(Tick()) }
            })
        #expect(waitUntil { log.count == 1 })
    }

    @Test("The tap counts exactly N x M deliveries from 8 threads")
    func tapCountsExactly() {
        let office = PostOffice()
        let posts = Counter()
        let deliveries = Counter()
        office.attach(
            ClosureTap { event in
                switch event {
                case .posted: posts.increment()
                case .delivered: deliveries.increment()
                default: break
                }
            })
        for _ in 0..<4 { office.register { (_: Tick) in } }
        #expect(concurrently(8) { _ in for _ in 0..<10_000 { office.post(Tick()) } })
        #expect(posts.count == 80_000)
        #expect(deliveries.count == 320_000)
    }

    @Test("Post ids from 8 threads and 2 post offices are unique and never 0")
    func postIdsAreUnique() {
        let offices = [PostOffice(), PostOffice()]
        let tap = RecordingTap()
        for office in offices {
            office.attach(tap)
            office.register { (_: Tick) in }
        }
        #expect(concurrently(8) { index in for _ in 0..<2_000 { offices[index % 2].post(Tick()) } })
        let ids = tap.posted.map(\.postId)
        #expect(ids.count == 16_000)
        #expect(Set(ids).count == ids.count)
        #expect(!ids.contains(0))
    }

    @Test("Taps attached and detached while threads post see whole posts only")
    func attachDetachWhilePosting() {
        let office = PostOffice()
        office.register { (_: Tick) in }
        let running = Atomic<Bool>(true)
        let finished = concurrently(3) { index in
            if index < 2 {
                while running.load(ordering: .relaxed) { office.post(Tick()) }
            } else {
                for _ in 0..<500 {
                    let tap = RecordingTap()
                    office.attach(tap)
                    office.detach(tap)
                    // Every delivery the tap saw belongs to a post it saw. Deliveries are read first: a post's
                    // deliveries are reported after the post itself, so a post still running after detach can
                    // only add events to both lists.
                    let delivered = tap.delivered
                    let posted = Set(tap.posted.map(\.postId))
                    #expect(delivered.allSatisfy { posted.contains($0.postId) })
                }
                running.store(false, ordering: .relaxed)
            }
        }
        #expect(finished)
    }
}
