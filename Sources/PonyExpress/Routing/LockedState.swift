import Synchronization

/// The post office's state behind its lock.
///
/// Routes that a change took out of their slots (see ``RouteSlot``) are freed after the lock is released, and only
/// once no post is reading them: freeing a route may free registrations, and with them whatever their handlers
/// captured, whose deinitializers may call the post office.
final class LockedState: @unchecked Sendable {
    private let lock = Lock()
    private let state: UnsafeMutablePointer<PostOffice.State>
    /// Whether routes wait for posts to be done with them; a post that read its route without the lock checks it
    /// when done, and frees them.
    let hasRetired = Atomic<Bool>(false)

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: PostOffice.State())
    }

    deinit {
        // No post of this office is under way: every route can go, and the slots that threads remember are emptied.
        var freed = state.pointee.retired
        for slot in state.pointee.routes.all { freed.append(contentsOf: slot.replace(with: nil).map { [$0] } ?? []) }
        state.pointee.retired = []
        state.deinitialize(count: 1)
        state.deallocate()
        for route in freed { route.release() }
    }

    @inline(__always)
    func withLock<T>(_ body: (inout PostOffice.State) -> T) -> T {
        lock.lock()
        let result = body(&state.pointee)
        guard state.pointee.retired.isEmpty else {
            unlockFreeingRetiredRoutes()
            return result
        }
        lock.unlock()
        return result
    }

    /// Frees the retired routes that no post is reading any more, now that a post that read one is done.
    @inline(never)
    func freeRetiredRoutes() {
        lock.lock()
        unlockFreeingRetiredRoutes()
    }

    @inline(never)
    private func unlockFreeingRetiredRoutes() {
        let freed = state.pointee.takeUnheldRoutes()
        hasRetired.store(!state.pointee.retired.isEmpty, ordering: .relaxed)
        lock.unlock()
        for route in freed { route.release() }
    }
}
