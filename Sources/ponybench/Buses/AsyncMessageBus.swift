import Foundation
import PonyExpress
import Synchronization

/// Foundation's typed `NotificationCenter.AsyncMessage` (Swift 6.3): `post` returns at once and observers run later
/// on the concurrency pool. A timed batch ends when every post of it has been delivered (``drain()``), so its rows
/// are throughput, post and delivery together, comparable with the synchronous buses.
final class AsyncMessageBus: TypedMessageBus {
    static let name = "AsyncMessage"
    let observations = MessageObservations()
    private let counts = DeliveryCounts()

    required init() {}

    func subscribe(_ handler: @escaping @Sendable (BenchMail) -> Void) -> NotificationCenter.ObservationToken {
        counts.recipients.add(1, ordering: .relaxed)
        return observations.keep(
            observations.center.addObserver(for: AsyncBenchMessage.self) { [counts] message in
                handler(message.mail)
                counts.delivered.add(1, ordering: .releasing)
            })
    }

    func observeOther<T: Mail>(_ type: T.Type) -> NotificationCenter.ObservationToken {
        observations.center.addObserver(for: AsyncOtherMessage<T>.self) { blackHole($0) }
    }

    func unsubscribe(_ token: NotificationCenter.ObservationToken) {
        observations.remove(token)
        counts.recipients.subtract(1, ordering: .relaxed)
    }

    func post(_ mail: BenchMail) {
        counts.expected.add(counts.recipients.load(ordering: .relaxed), ordering: .relaxed)
        observations.center.post(AsyncBenchMessage(mail: mail))
    }

    /// Waits until every post so far has reached every recipient. Deliveries that stop arriving for ``stallLimit``
    /// are given up and counted in ``lost``: Foundation's typed messages have been seen to leave a few of a batch
    /// undelivered for 30 s and more (3 of 64, on a quiet machine), and a wait for them spun without end. The batch is
    /// then timed with that second in it, so the row's fastest batch is one that lost none.
    func drain() {
        var seen = counts.delivered.load(ordering: .acquiring)
        var progressed = ContinuousClock.now
        var spins = 0
        while true {
            let delivered = counts.delivered.load(ordering: .acquiring)
            let owed = counts.expected.load(ordering: .relaxed)
            if delivered >= owed { return }
            spins &+= 1
            if delivered != seen {
                seen = delivered
                progressed = .now
            } else if spins % 1_024 == 0, progressed.duration(to: .now) > Self.stallLimit {
                counts.expected.subtract(owed - delivered, ordering: .relaxed)
                Self.lost.add(owed - delivered, ordering: .relaxed)
                return
            }
            sched_yield()
        }
    }

    /// How long deliveries may stop arriving before ``drain()`` gives them up.
    static let stallLimit = Duration.seconds(1)
    /// Deliveries given up in this run, over every bus of this type.
    static let lost = Atomic<Int>(0)
}

/// What ``AsyncMessageBus/drain()`` waits on: deliveries made against deliveries owed by the posts so far.
private final class DeliveryCounts: Sendable {
    let recipients = Atomic<Int>(0)
    let expected = Atomic<Int>(0)
    let delivered = Atomic<Int>(0)
}
