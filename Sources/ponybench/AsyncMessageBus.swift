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

    func subscribe(_ handler: @escaping (BenchMail) -> Void) -> NotificationCenter.ObservationToken {
        nonisolated(unsafe) let handler = handler
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

    /// Waits until every post so far has reached every recipient.
    func drain() {
        while counts.delivered.load(ordering: .acquiring) < counts.expected.load(ordering: .relaxed) {
            sched_yield()
        }
    }
}

/// What ``AsyncMessageBus/drain()`` waits on: deliveries made against deliveries owed by the posts so far.
private final class DeliveryCounts: Sendable {
    let recipients = Atomic<Int>(0)
    let expected = Atomic<Int>(0)
    let delivered = Atomic<Int>(0)
}
