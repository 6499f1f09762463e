/// Where a post came from, as taps see it: this process's own code, another process through a relay, or a
/// `NotificationCenter` bridge.
///
/// A relay or a bridge posts with ``PostOffice/post(_:sender:origin:)-(_,AnyObject?,_)``; every other post is
/// ``local``. Recipients do not see the origin: they filter on the sender, which a relay sets to an object naming the
/// remote process.
public enum PostOrigin: UInt8, Hashable, Sendable, CaseIterable {
    /// Posted by code in this process.
    case local
    /// Posted in another process and relayed into this one (for example by `PonyExpressRelay`).
    case relayed
    /// Relayed from a `NotificationCenter` notification by a bridge.
    case bridged
}
