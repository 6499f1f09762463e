/// The taps attached to a post office at one moment. Immutable: attaching or detaching a tap replaces the list, and
/// every route carries the list it was built with.
final class TapList: Sendable {
    /// The first tap, kept apart so that the usual single tap is called without walking an array.
    let first: any DeliveryTap
    /// The other taps, in the order they were attached.
    let others: [any DeliveryTap]
    /// Whether any tap reads the times in events; if none does, posts do not read the clock.
    let isTimed: Bool

    /// Makes a list of `taps`, or returns `nil` when there are none.
    init?(_ taps: [any DeliveryTap]) {
        guard let first = taps.first else { return nil }
        self.first = first
        others = Array(taps.dropFirst())
        isTimed = taps.contains { $0.wantsTimings }
    }

    /// Every tap, in the order they were attached.
    var all: [any DeliveryTap] { [first] + others }

    /// Hands `event` to every tap.
    @inline(__always)
    func emit(_ event: TapEvent) {
        first.receive(event)
        if !others.isEmpty {
            for tap in others { tap.receive(event) }
        }
    }
}
