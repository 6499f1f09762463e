import Synchronization

/// The current route of one posted type in one post office, which a post reads without taking the lock.
///
/// The post office replaces the route under its lock, and frees the route it took out only when no thread holds it
/// in its ``ThreadRuns/routes`` (a hazard pointer): a post enters the route's address there, then checks that the
/// slot still holds it, both sequentially consistent, so either the post sees the change and takes the lock
/// instead, or the post office sees the post's entry and keeps the old route until the post is done with it.
/// A post office keeps each slot for its whole life (they are few: one per posted type), so a thread's
/// ``RouteCache`` can hold on to it; when the post office goes, its slots are emptied.
final class RouteSlot: @unchecked Sendable {
    /// The route's address, retained by the slot, or 0 when the route must be built under the lock.
    private let current = Atomic<UInt>(0)

    init() {}

    deinit {
        replace(with: nil)?.release()
    }

    /// The route; read under the post office's lock.
    var route: Route? {
        let address = current.load(ordering: .relaxed)
        guard address != 0 else { return nil }
        return Unmanaged<Route>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
    }

    /// Publishes `route` (or none); called under the post office's lock.
    /// - Returns: The route it replaced, still retained: the post office releases it once no post holds it.
    func replace(with route: Route?) -> Unmanaged<Route>? {
        let new = route.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        let old = current.exchange(new, ordering: .sequentiallyConsistent)
        guard old != 0 else { return nil }
        return Unmanaged<Route>.fromOpaque(UnsafeRawPointer(bitPattern: old)!)
    }

    /// The current route, entered in `routes` so that it is not freed until the caller pops it; `nil` when there is
    /// none or it changed meanwhile (the caller then takes the lock).
    @inline(__always)
    func hold(in routes: borrowing AddressStack) -> (route: Unmanaged<Route>, depth: Int)? {
        let address = current.load(ordering: .acquiring)
        guard address != 0 else { return nil }
        let depth = routes.push(address)
        // The route at `address` is not touched before this check: until then it may have been freed.
        guard current.load(ordering: .sequentiallyConsistent) == address else {
            routes.pop(to: depth)
            return nil
        }
        return (Unmanaged<Route>.fromOpaque(UnsafeRawPointer(bitPattern: address)!), depth)
    }
}
