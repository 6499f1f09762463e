import Dispatch
import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

private struct Ping: Mail {}

/// A tap that wants one post in `interval` timed, and records the delivery events it sees.
private final class SamplingTap: DeliveryTap {
    let timingInterval: Int
    private let recording = RecordingTap()

    init(interval: Int) { timingInterval = interval }

    func receive(_ event: TapEvent) { recording.receive(event) }

    var posted: [Posting] { recording.posted }
    var delivered: [Delivery] { recording.delivered }
}

@Suite struct TimingIntervalTests {
    @Test func aSamplingTapHasOnePostInItsIntervalTimedAndTheRestUntimed() {
        let office = PostOffice()
        let tap = SamplingTap(interval: 8)
        office.attach(tap)
        office.register { (_: Ping) in }
        let posts = 4_000
        for _ in 0..<posts { office.post(Ping()) }

        let delivered = tap.delivered
        #expect(delivered.count == posts, "every delivery is reported, timed or not")
        let timed = delivered.filter(\.isTimed)
        #expect(timed.count >= posts / 8, "at least one post in the interval is timed")
        #expect(timed.count < posts, "a tight loop of posts is not timed whole")
        #expect(timed.allSatisfy { $0.finishedAt >= $0.startedAt && $0.startedAt >= $0.postedAt })
        let untimed = delivered.filter { !$0.isTimed }
        #expect(untimed.allSatisfy { $0.startedAt == 0 && $0.duration == 0 && $0.wait == 0 })
        #expect(tap.posted.allSatisfy { $0.time > 0 }, "an untimed post still carries the coarse time")
    }

    @Test func theFirstPostToNewTapsAndThePostsAfterASlowOneAreTimed() {
        let office = PostOffice()
        let tap = SamplingTap(interval: 1_000)
        office.attach(tap)
        office.register { (_: Ping) in spin(nanoseconds: 1_100_000) }
        for _ in 0..<5 { office.post(Ping()) }
        #expect(tap.delivered.map(\.isTimed) == Array(repeating: true, count: 5))
        #expect(tap.delivered.allSatisfy { $0.duration >= 1_000_000 })
    }

    @Test func aTapThatWantsEveryPostTimedOverridesASamplingOne() {
        let office = PostOffice()
        let sampling = SamplingTap(interval: 64)
        let everyPost = RecordingTap()
        office.attach(sampling)
        office.attach(everyPost)
        office.register { (_: Ping) in }
        for _ in 0..<500 { office.post(Ping()) }
        #expect(sampling.delivered.count == 500)
        #expect(sampling.delivered.allSatisfy { $0.isTimed })
        #expect(everyPost.delivered.allSatisfy { $0.isTimed })
    }

    @Test func queuedDeliveriesOfUntimedPostsAreTimedFromTheirScheduling() {
        let office = PostOffice()
        let tap = SamplingTap(interval: 1_000)
        office.attach(tap)
        let queue = DispatchQueue(label: "timing.interval.queued")
        office.register(queue: queue) { (_: Ping) in }
        queue.suspend()
        for _ in 0..<20 { office.post(Ping()) }
        spin(nanoseconds: 2_000_000)
        queue.resume()
        #expect(waitUntil { tap.delivered.count == 20 })
        #expect(tap.delivered.allSatisfy { $0.isTimed })
        #expect(tap.delivered.allSatisfy { $0.wait >= 1_900_000 && $0.wait < 1_000_000_000 })
    }
}
