import PonyExpress
import Synchronization

/// The cheapest useful tap: it counts events by kind, with relaxed atomics, and reads no times.
final class CountingTap: DeliveryTap {
    var wantsTimings: Bool { false }
    let posts = Atomic<Int>(0)
    let deliveries = Atomic<Int>(0)
    let others = Atomic<Int>(0)

    func receive(_ event: TapEvent) {
        switch event {
        case .posted: posts.add(1, ordering: .relaxed)
        case .delivered: deliveries.add(1, ordering: .relaxed)
        default: others.add(1, ordering: .relaxed)
        }
    }
}
