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

private struct Job: Mail {}

/// A handler that is running while two `unregister` calls for its registration race, each on its own thread. The
/// handler stays inside until one of them returns or `holdFor` passes; when it ends it notes whether an
/// `unregister` had already returned, which the promise forbids: once `unregister` returns, no handler of the
/// registration is running on another thread, whichever of the two calls took it out of the post office.
private final class RacedRun: Sendable {
    let entered = DispatchSemaphore(value: 0)
    let returned = Atomic<Int>(0)
    let endedAfterReturn = Atomic<Int>(0)
    let runs = Atomic<Int>(0)
    let holdFor: UInt64

    init(holdFor milliseconds: UInt64) {
        self.holdFor = milliseconds * 1_000_000
    }

    func handler() {
        runs.add(1, ordering: .relaxed)
        entered.signal()
        let deadline = DispatchTime.now().uptimeNanoseconds + holdFor
        while returned.load(ordering: .acquiring) == 0, DispatchTime.now().uptimeNanoseconds < deadline {
            sched_yield()
        }
        if returned.load(ordering: .acquiring) > 0 { endedAfterReturn.add(1, ordering: .relaxed) }
    }

    /// Runs both removals at once, once the handler is inside, and waits for them; each marks its return.
    func race(_ first: @escaping @Sendable () -> Void, _ second: @escaping @Sendable () -> Void) -> Bool {
        guard entered.wait(timeout: .now() + 10) == .success else { return false }
        return concurrently(2, within: 20) { index in
            if index == 0 { first() } else { second() }
            self.returned.add(1, ordering: .releasing)
        }
    }

    /// Runs `removal` on another thread once the handler is inside, marks its return, and waits for it.
    func remove(_ removal: @escaping @Sendable () -> Void) -> Bool {
        guard entered.wait(timeout: .now() + 10) == .success else { return false }
        return finishes(within: 20) {
            removal()
            self.returned.add(1, ordering: .releasing)
        }
    }
}

private final class Owner: Sendable {
    let run: RacedRun
    init(_ run: RacedRun) { self.run = run }
    func receive(_: Job) { run.handler() }
}

/// The windows issue 43 found: a registration that another thread takes out of the post office first (another
/// `unregister`, `unregister(object)`, a once registration's own retirement) made the second `unregister` return
/// at once, while a handler of the registration still ran, or had passed its check and not yet started.
@Suite("unregister waits whoever removed the registration", .tags(.concurrency))
struct UnregisterRaceTests {
    /// How many rounds each race runs, and how long the handler stays inside waiting for a wrong return.
    private static let rounds = 8
    private static let hold: UInt64 = 100

    @Test("Two threads unregister the same id while its queued handler runs: neither returns before it ends")
    func twoUnregistersOfOneId() async {
        // Its handler stays inside for up to 100 ms a round, yielding: kept apart from real-time tests.
        await MachineLoad.alone {
            for _ in 0..<Self.rounds {
                let office = PostOffice()
                let queue = DispatchQueue(label: "raced")
                let run = RacedRun(holdFor: Self.hold)
                let id = office.register(queue: queue) { (_: Job) in run.handler() }
                office.post(Job())
                let raced = run.race({ office.unregister(id) }, { office.unregister(id) })
                #expect(raced)
                queue.sync {}
                #expect(run.runs.load(ordering: .relaxed) == 1)
                #expect(
                    run.endedAfterReturn.load(ordering: .relaxed) == 0, "a handler ran on after unregister returned")
            }
        }
    }

    @Test("unregister(object) and unregister(id) race while the object's handler runs: neither returns before it ends")
    func objectAndIdRace() async {
        // Its handler stays inside for up to 100 ms a round, yielding: kept apart from real-time tests.
        await MachineLoad.alone {
            for _ in 0..<Self.rounds {
                let office = PostOffice()
                let run = RacedRun(holdFor: Self.hold)
                let owner = Owner(run)
                let id = office.register(owner, Owner.receive)
                let poster = DispatchQueue(label: "poster")
                poster.async { office.post(Job()) }
                let raced = run.race({ office.unregister(owner) }, { office.unregister(id) })
                #expect(raced)
                poster.sync {}
                #expect(run.runs.load(ordering: .relaxed) == 1)
                #expect(
                    run.endedAfterReturn.load(ordering: .relaxed) == 0, "a handler ran on after unregister returned")
                withExtendedLifetime(owner) {}
            }
        }
    }

    @Test("A once handler that is running is waited for by unregister(id), even when another removal came first")
    func onceHandlerWaitedFor() async {
        // Its handler stays inside for up to 100 ms a round, yielding: kept apart from real-time tests.
        await MachineLoad.alone {
            for _ in 0..<Self.rounds {
                let office = PostOffice()
                let run = RacedRun(holdFor: Self.hold)
                let neighbour = Owner(RacedRun(holdFor: 0))
                office.register(neighbour, Owner.receive)
                let id = office.register(options: .once) { (_: Job) in run.handler() }
                let queue = DispatchQueue(label: "poster")
                queue.async { office.post(Job()) }
                // The neighbour's removal, in the once registration's bucket, comes while its claimed run is inside.
                let removed = run.remove {
                    office.unregister(neighbour)
                    office.unregister(id)
                }
                #expect(removed)
                queue.sync {}
                #expect(run.runs.load(ordering: .relaxed) == 1)
                #expect(
                    run.endedAfterReturn.load(ordering: .relaxed) == 0, "a handler ran on after unregister returned")
                #expect(office.recipientCount == 0)
            }
        }
    }

    @Test("Six threads post, register, unregister (twice, by id and object), release and tap: no late handler")
    func stress() async {
        let result = await MachineLoad.alone {
            unregisterStress(PostOffice(), seconds: Sanitizer.active == nil ? 2 : 0.5)
        }
        #expect(result.finished, "\(result)")
        // A floor that says the run did something; under a sanitizer on a busy machine it does far less.
        #expect(result.runs > 100 && result.unregisters > 100, "\(result)")
        #expect(result.lateStarts == 0, "\(result)")
        #expect(result.lateEnds == 0, "\(result)")
    }

    @Test("unregister(self) in deinit removes the object's registrations, although its weak references read nil there")
    func unregisterInDeinit() {
        let office = PostOffice()
        final class Screen: Sendable {
            let office: PostOffice
            init(_ office: PostOffice) {
                self.office = office
                office.register(self, Screen.receive)
                office.register(queue: .global(), self, Screen.receive)
            }
            func receive(_: Job) {}
            deinit { office.unregister(self) }
        }
        var screen: Screen? = Screen(office)
        #expect(office.recipientCount == 2)
        withExtendedLifetime(screen) {}
        screen = nil
        // Removed by the deinit, not left for a post to prune.
        #expect(office.recipientCount == 0)
    }
}
