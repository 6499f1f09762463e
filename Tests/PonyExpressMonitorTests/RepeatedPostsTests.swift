import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

@testable import PonyExpressMonitor

private struct Ping: Mail {}
private struct Pong: Mail {}

/// Mail that can be made from its type alone.
private protocol Tag: Mail {
    init()
}

/// Eight mail types, one for each of eight tags.
private struct Tagged<T>: Tag {}

/// A thread's untimed posts that repeat its last one (one mail type, one recipient, one second) are counted without
/// the shard's lock, in `RepeatedPosts`, and added to the counters by the next holder of the lock. These tests check
/// that the repeats are taken that way, and that every figure stays exact whoever absorbs them.
@Suite(.blocksItsThread) struct RepeatedPostsTests {
    /// How many repeats the calling thread has counted without the lock and no holder of the lock has absorbed yet.
    private func unabsorbedRepeats(of monitor: PostOfficeMonitor) -> UInt64 {
        let shard = monitor.shards[of: ShardTable.currentThread()]
        return shard.withLock { _ in
            (0..<RepeatedPosts.capacity).reduce(0) { total, index in
                let pair = shard.repeats.pointee.pairs + index
                return total
                    + (pair.pointee.count.load(ordering: .relaxed)
                        &- shard.repeats.pointee.locked.pointee.absorbed[index])
            }
        }
    }

    @Test func repeatsAreCountedWithoutTheLockAndEachOnce() {
        let (office, monitor, _) = watchedOffice()
        let recipient = office.register { (_: Ping) in }
        for _ in 0..<1_000 { office.post(Ping()) }
        #expect(unabsorbedRepeats(of: monitor) > 900, "most posts were repeats of the one before")

        var snapshot = monitor.snapshot()
        #expect(unabsorbedRepeats(of: monitor) == 0, "the snapshot absorbed them")
        #expect(snapshot.totals.posts == 1_000)
        #expect(snapshot.totals.deliveries == 1_000)
        #expect(snapshot.stats(of: TypeIdentity(Ping.self))?.posts == 1_000)
        #expect(snapshot.recipients(of: TypeIdentity(Ping.self)).map(\.deliveries) == [1_000])

        for _ in 0..<500 { office.post(Ping()) }
        snapshot = monitor.snapshot()
        snapshot = monitor.snapshot()
        #expect(snapshot.totals.posts == 1_500, "two snapshots in a row add each repeat once")
        #expect(snapshot.recipients(of: TypeIdentity(Ping.self)).map(\.deliveries) == [1_500])
        withExtendedLifetime(recipient) {}
    }

    @Test func repeatsFallInTheSecondTheyWerePostedIn() {
        let (office, monitor, clock) = watchedOffice()
        _ = office.register { (_: Ping) in }
        for _ in 0..<120 { office.post(Ping()) }
        clock.advance(seconds: 1)
        for _ in 0..<40 { office.post(Ping()) }
        clock.advance(seconds: 1)
        for _ in 0..<7 { office.post(Ping()) }
        clock.advance(seconds: 1)
        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.postsHistory.suffix(3) == [120, 40, 7])
        #expect(snapshot.stats(of: TypeIdentity(Ping.self))?.history.suffix(3) == [120, 40, 7])
    }

    @Test func postsOfTwoPairsInTurnAreRepeats() {
        let (office, monitor, _) = watchedOffice()
        _ = office.register { (_: Ping) in }
        _ = office.register { (_: Pong) in }
        for _ in 0..<500 {
            office.post(Ping())
            office.post(Pong())
        }
        #expect(unabsorbedRepeats(of: monitor) > 900, "most posts repeated one of the two pairs")
        let snapshot = monitor.snapshot()
        #expect(snapshot.stats(of: TypeIdentity(Ping.self))?.posts == 500)
        #expect(snapshot.stats(of: TypeIdentity(Pong.self))?.posts == 500)
    }

    @Test func theFirstFourPairsOfASecondAreRepeatsAndTheOthersTakeTheLock() {
        let (office, monitor, clock) = watchedOffice()
        let types: [any Tag.Type] = [
            Tagged<Int8>.self, Tagged<Int16>.self, Tagged<Int32>.self, Tagged<Int64>.self, Tagged<UInt8>.self,
            Tagged<UInt16>.self, Tagged<UInt32>.self, Tagged<UInt64>.self,
        ]
        func register<M: Tag>(_: M.Type) { office.register { (_: M) in } }
        func post<M: Tag>(_: M.Type) { office.post(M()) }
        for type in types { register(type) }
        for second in 0..<2 {
            // The second second starts with the last four types.
            let order = second == 0 ? types : Array(types[4...] + types[..<4])
            for _ in 0..<100 {
                for type in order { post(type) }
            }
            // 400 posts of the first four pairs, less the four that set them and the few timed (one in 32).
            #expect((350...396).contains(unabsorbedRepeats(of: monitor)), "the first four pairs repeat")
            clock.advance(seconds: 1)
        }
        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.posts == 1_600)
        #expect(snapshot.totals.postsHistory.suffix(2) == [800, 800])
        for type in types {
            let identity = TypeIdentity(type)
            #expect(snapshot.stats(of: identity)?.posts == 200)
            #expect(snapshot.recipients(of: identity).map(\.deliveries) == [200])
        }
    }

    @Test func manyPairsInTurnCountExactly() {
        let (office, monitor, _) = watchedOffice()
        let ping = office.register { (_: Ping) in }
        let pong = office.register { (_: Pong) in }
        for round in 0..<300 {
            for _ in 0..<(round % 5) { office.post(Ping()) }
            office.post(Pong())
        }
        let snapshot = monitor.snapshot()
        #expect(snapshot.stats(of: TypeIdentity(Ping.self))?.posts == 600)
        #expect(snapshot.stats(of: TypeIdentity(Pong.self))?.posts == 300)
        #expect(snapshot.recipients(of: TypeIdentity(Ping.self)).map(\.info.id) == [ping])
        #expect(snapshot.recipients(of: TypeIdentity(Ping.self)).map(\.deliveries) == [600])
        #expect(snapshot.recipients(of: TypeIdentity(Pong.self)).map(\.info.id) == [pong])
        #expect(snapshot.recipients(of: TypeIdentity(Pong.self)).map(\.deliveries) == [300])
    }

    @Test func aRemovedRecipientsRepeatsStillCountForItsMailType() {
        let (office, monitor, _) = watchedOffice()
        let first = office.register { (_: Ping) in }
        for _ in 0..<100 { office.post(Ping()) }
        office.unregister(first)
        let second = office.register { (_: Ping) in }
        for _ in 0..<30 { office.post(Ping()) }
        let snapshot = monitor.snapshot()
        #expect(snapshot.stats(of: TypeIdentity(Ping.self))?.posts == 130)
        #expect(snapshot.stats(of: TypeIdentity(Ping.self))?.deliveries == 130)
        #expect(snapshot.recipients(of: TypeIdentity(Ping.self)).map(\.info.id) == [second])
        #expect(snapshot.recipients(of: TypeIdentity(Ping.self)).map(\.deliveries) == [30])
    }

    @Test func aResetForgetsTheRepeatsBeforeIt() {
        let (office, monitor, _) = watchedOffice()
        _ = office.register { (_: Ping) in }
        for _ in 0..<100 { office.post(Ping()) }
        #expect(unabsorbedRepeats(of: monitor) > 0)
        monitor.reset()
        for _ in 0..<25 { office.post(Ping()) }
        let snapshot = monitor.snapshot()
        #expect(snapshot.totals.posts == 25)
        #expect(snapshot.recipients(of: TypeIdentity(Ping.self)).map(\.deliveries) == [25])
    }

    @Test func timedPostsAmongRepeatsKeepTheirHandlerTimes() {
        let (office, monitor, _) = watchedOffice { $0.handlerTimingInterval = 8 }
        _ = office.register { (_: Ping) in }
        for _ in 0..<800 { office.post(Ping()) }
        let snapshot = monitor.snapshot()
        let stats = snapshot.stats(of: TypeIdentity(Ping.self))
        #expect(stats?.posts == 800)
        #expect(stats?.deliveries == 800)
        // One post in 8 is timed, and more when the thread's turn comes early (its first post, a quiet gap).
        #expect((100...800).contains(stats?.handlerLatency.count ?? 0))
    }
}

@Suite(.blocksItsThread, .tags(.concurrency)) struct RepeatedPostsConcurrencyTests {
    /// One shard for every thread: one of them counts its repeats without the lock, the others take the lock, and
    /// a snapshot absorbs the repeats while they post. Threads end and new ones start, which may be given the ids
    /// of those that ended.
    @Test func threadsSharingOneShardCountExactly() {
        let (office, monitor, _) = watchedOffice { $0.shards = 1 }
        let ping = office.register { (_: Ping) in }
        let pong = office.register { (_: Pong) in }
        let postsPerThread = 5_000
        let posters = Atomic<Int>(0)
        var finished = true
        for round in 0..<3 {
            posters.store(0, ordering: .relaxed)
            finished =
                finished
                && concurrently(5, within: 60) { index in
                    guard index < 4 else {
                        while posters.load(ordering: .acquiring) < 4 { _ = monitor.snapshot() }
                        return
                    }
                    for count in 0..<postsPerThread {
                        if (index + round) % 2 == 0 || count % 10 == 0 {
                            office.post(Pong())
                        } else {
                            office.post(Ping())
                        }
                    }
                    posters.add(1, ordering: .releasing)
                }
        }
        #expect(finished)
        let snapshot = monitor.snapshot()
        let posts = UInt64(3 * 4 * postsPerThread)
        #expect(snapshot.totals.posts == posts)
        #expect(snapshot.totals.deliveries == posts)
        let pings = snapshot.recipients(of: TypeIdentity(Ping.self))
        let pongs = snapshot.recipients(of: TypeIdentity(Pong.self))
        #expect(pings.map(\.info.id) == [ping])
        #expect(pongs.map(\.info.id) == [pong])
        #expect(pings.map(\.deliveries).reduce(0, +) + pongs.map(\.deliveries).reduce(0, +) == posts)
        #expect(snapshot.stats(of: TypeIdentity(Ping.self))?.posts == pings.first?.deliveries)
    }
}
