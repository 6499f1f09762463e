import PonyExpress
import Synchronization

/// One route's switch and the way to take its observer or recipient down.
final class BridgeRoute: Sendable {
    private let on = Atomic<Bool>(true)
    private let stopper = Locked<(@Sendable () -> Void)?>(nil)

    /// Whether the route still relays; checked before each relay, so a route stops at once when removed.
    var isOn: Bool { on.load(ordering: .acquiring) }

    /// Sets what takes the route's observer or recipient down; called once, right after it is made.
    func onShutOff(_ stop: @escaping @Sendable () -> Void) {
        stopper.withLock { $0 = stop }
    }

    /// Turns the route off and takes its observer or recipient down.
    func shutOff() {
        on.store(false, ordering: .releasing)
        let stop = stopper.withLock { stopper in
            defer { stopper = nil }
            return stopper
        }
        stop?()
    }
}
