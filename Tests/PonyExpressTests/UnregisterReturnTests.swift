import Dispatch
import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private struct Ping: Mail {}
private struct Queued: Mail {}
private struct Numbered: Mail { var number: Int }

/// What every handler run saw, counted without a lock so that counting does not serialise the threads.
private final class Runs: Sendable {
    let total = Atomic<Int>(0)
    /// Handler runs that started after `unregister` of their registration had returned.
    let late = Atomic<Int>(0)
}

/// One registration's flag, set by the thread that unregistered it right after `unregister` returned.
private final class Watch: Sendable {
    let unregistered = Atomic<Bool>(false)
    let runs = Atomic<Int>(0)

    /// The first thing every handler does: was `unregister` already over?
    func handlerStarted(_ counts: Runs) {
        if unregistered.load(ordering: .acquiring) { counts.late.add(1, ordering: .relaxed) }
        runs.add(1, ordering: .relaxed)
        counts.total.add(1, ordering: .relaxed)
    }
}

/// A recipient object, for the object-and-method registrations that `unregister(object)` removes.
private final class Listener: Sendable {
    let watch: Watch
    let counts: Runs
    init(watch: Watch, counts: Runs) {
        self.watch = watch
        self.counts = counts
    }
    func receive(_: Ping) { watch.handlerStarted(counts) }
    func receiveQueued(_: Queued) { watch.handlerStarted(counts) }
}

/// The promise users tear down by: once `unregister` returns, no handler of that registration starts, whether it
/// runs on the posting thread or on a queue, and whether the post began before or after. Here threads post without
/// pause while others register recipients, let them receive a few posts, unregister them and, right after
/// `unregister` returned, set the flag each handler checks first.
@Suite("Once unregister returns, no handler of that registration starts", .blocksItsThread, .tags(.concurrency))
struct UnregisterReturnTests {
    @Test(
        "4 threads posting, 2 unregistering synchronous and queued recipients: no handler starts after unregister"
    )
    func noHandlerStartsAfterUnregister() async {
        // Six threads busy for seconds: kept apart from real-time tests.
        await MachineLoad.alone {
            let office = PostOffice()
            let counts = Runs()
            let serial = (0..<2).map { DispatchQueue(label: "serial \($0)") }
            let concurrent = DispatchQueue(label: "concurrent", attributes: .concurrent)
            let churning = Atomic<Int>(2)
            let rounds = Sanitizer.active == nil ? 3_000 : 300
            let finished = concurrently(6, within: 300) { index in
                if index < 4 {
                    // Synchronous recipients get `Ping`, posted here without pause.
                    while churning.load(ordering: .relaxed) > 0 {
                        for _ in 0..<64 { office.post(Ping()) }
                        sched_yield()
                    }
                    return
                }
                for round in 0..<rounds {
                    let watch = Watch()
                    let listener = Listener(watch: watch, counts: counts)
                    let byObject = round % 4 == 3
                    let queue: DispatchQueue? =
                        switch round % 4 {
                        case 0: nil
                        case 1: serial[index % 2]
                        case 2: concurrent
                        default: round % 8 == 3 ? nil : serial[(index + 1) % 2]
                        }
                    let id: RecipientId
                    if let queue {
                        // Queued recipients get `Queued`, posted here: a burst that the queue is still working through
                        // when `unregister` comes, and no backlog that grows.
                        id =
                            byObject
                            ? office.register(queue: queue, listener, Listener.receiveQueued)
                            : office.register(queue: queue) { (_: Queued) in watch.handlerStarted(counts) }
                        for _ in 0..<16 { office.post(Queued()) }
                    } else {
                        id =
                            byObject
                            ? office.register(listener, Listener.receive)
                            : office.register { (_: Ping) in watch.handlerStarted(counts) }
                    }
                    // Let it run a few times, so that deliveries to it are under way when it goes.
                    var spins = 0
                    while watch.runs.load(ordering: .relaxed) < 3, spins < 100_000 {
                        sched_yield()
                        spins += 1
                    }
                    if byObject { office.unregister(listener) } else { office.unregister(id) }
                    watch.unregistered.store(true, ordering: .releasing)
                    withExtendedLifetime(listener) {}
                }
                churning.subtract(1, ordering: .relaxed)
            }
            #expect(finished)
            for queue in serial { queue.sync {} }
            concurrent.sync(flags: .barrier) {}
            #expect(counts.total.load(ordering: .relaxed) > 0)
            let total = counts.total.load(ordering: .relaxed)
            #expect(
                counts.late.load(ordering: .relaxed) == 0, "handlers started after unregister returned, of \(total)")
            #expect(office.recipientCount == 0)
        }
    }

    @Test("Two threads running the same handler, each unregistering it from inside: neither waits for the other")
    func sameRegistrationFromInsideOnTwoThreads() {
        let office = PostOffice()
        let inside = DispatchSemaphore(value: 0)
        let bothInside = DispatchSemaphore(value: 0)
        let me = Locked<RecipientId?>(nil)
        let runs = Tally<Int>()
        let id = office.register { (_: Ping) in
            inside.signal()
            // Both posts are inside this handler before either unregisters.
            _ = bothInside.wait(timeout: .now() + 5)
            if let id = me.withLock({ $0 }) { office.unregister(id) }
            runs.add(1)
        }
        me.withLock { $0 = id }
        #expect(
            concurrently(3, within: 10) { index in
                if index < 2 {
                    office.post(Ping())
                } else {
                    for _ in 0..<2 { _ = inside.wait(timeout: .now() + 5) }
                    bothInside.signal()
                    bothInside.signal()
                }
            })
        #expect(runs.count == 2)
        #expect(office.recipientCount == 0)
    }

    @Test("Two handlers on two threads unregistering each other's registrations do not wait for each other forever")
    func crosswiseFromInside() {
        let office = PostOffice()
        let ids = Locked<[RecipientId]>([])
        let inside = DispatchSemaphore(value: 0)
        let bothInside = DispatchSemaphore(value: 0)
        let ended = Tally<Int>()
        for index in 0..<2 {
            let id = office.register { (mail: Numbered) in
                guard mail.number == index else { return }
                inside.signal()
                _ = bothInside.wait(timeout: .now() + 5)
                // Unregister the other handler, which is running on the other thread.
                office.unregister(ids.withLock { $0[1 - index] })
                ended.add(index)
            }
            ids.withLock { $0.append(id) }
        }
        #expect(
            concurrently(3, within: 10) { index in
                if index < 2 {
                    office.post(Numbered(number: index))
                } else {
                    for _ in 0..<2 { _ = inside.wait(timeout: .now() + 5) }
                    bothInside.signal()
                    bothInside.signal()
                }
            })
        #expect(Set(ended.all) == [0, 1])
        #expect(office.recipientCount == 0)
    }

    @Test("A queued handler that is running is waited for; one not yet started never starts")
    func queuedHandlerWaitedFor() {
        let office = PostOffice()
        let queue = DispatchQueue(label: "queued")
        let log = Tally<String>()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let id = office.register(queue: queue) { (_: Ping) in
            log.add("start")
            entered.signal()
            _ = release.wait(timeout: .now() + 5)
            log.add("end")
        }
        office.post(Ping())
        office.post(Ping())
        #expect(entered.wait(timeout: .now() + 5) == .success)
        let returned = Tally<[String]>()
        DispatchQueue.global().async {
            office.unregister(id)
            returned.add(log.all)
        }
        // Once the registration is gone, unregister is waiting: it does not return while the handler runs.
        #expect(waitUntil { office.recipientCount == 0 })
        #expect(returned.count == 0)
        release.signal()
        #expect(waitUntil { returned.count == 1 })
        #expect(returned.all == [["start", "end"]])
        queue.sync {}
        #expect(log.all == ["start", "end"])
    }

    @Test("A handler running 40 posts deep is waited for: runs past the first 16 are seen too")
    func deeplyNestedRunWaitedFor() {
        let office = PostOffice()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let deepest = Tally<Int>()
        let id = office.register { [weak office] (mail: Numbered) in
            if mail.number < 40 {
                office?.post(Numbered(number: mail.number + 1))
            } else {
                entered.signal()
                _ = release.wait(timeout: .now() + 10)
            }
            if mail.number == 1 { deepest.add(mail.number) }
        }
        DispatchQueue.global().async { office.post(Numbered(number: 1)) }
        #expect(entered.wait(timeout: .now() + 5) == .success)
        let returned = Tally<[Int]>()
        DispatchQueue.global().async {
            office.unregister(id)
            returned.add(deepest.all)
        }
        #expect(waitUntil { office.recipientCount == 0 })
        #expect(returned.count == 0)
        release.signal()
        #expect(waitUntil { returned.count == 1 })
        #expect(returned.all == [[1]], "unregister returned before the outermost run ended")
    }
}
