import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The registrations whose handlers one thread is running, innermost last: what `unregister` on another thread
/// waits for.
///
/// The entry handshake: a delivery enters its registration here, then checks that the registration is still
/// active, calls the handler, and leaves when the handler returned. `unregister` deactivates first and reads every
/// thread's runs after. Both sides are sequentially consistent, so either the delivery sees the registration
/// inactive and does not call the handler, or `unregister` sees the run and waits for it to end.
///
/// Only the owning thread writes its runs; other threads only read them. So a delivery writes no memory that
/// another thread writes, and threads posting at once do not contend here.
///
/// The record also holds the thread's side of reading routes without the post office's lock: the routes its posts
/// are reading (hazard pointers, see ``RouteSlot``) and the slots it found them in (``RouteCache``).
struct ThreadRuns: ~Copyable {
    /// The registrations whose handlers this thread runs, innermost last.
    let runs = AddressStack()
    /// Set while this thread, itself inside a handler, waits in `unregister`. Such waits do not wait for a thread
    /// that is waiting too, so two handlers that unregister each other's registrations cannot wait for each other
    /// forever.
    let isWaiting = Atomic<Bool>(false)
    /// The routes this thread's posts are reading without the lock, innermost last: a route taken out of its post
    /// office is freed only once no thread holds it here (see ``RouteSlot``).
    let routes = AddressStack()
    /// Where this thread's posts find the route of a mail type without the lock (see ``RouteCache``); only this
    /// thread reads or writes it.
    let cache = RouteCache()
    /// The ids this thread gives its tapped posts.
    let postIds = PostIds()
    /// Which of this thread's tapped posts are timed, when the taps time only some.
    let timingTurns = TimingTurns()
    /// The time this thread's timed handler runs spend in posts they make: what makes a run's self time.
    let nestedPosts = NestedPostTime()

    /// Records that this thread is about to run a handler of `registration`; the caller checks that it is active
    /// next, and calls ``leave(to:)`` with the returned depth when the handler returned (or was not called).
    ///
    /// The run is entered by the registration's id, not its address, and a method registration's run by its
    /// recipient object too (``RunKey``): ids are unique in the process for its whole life, so an `unregister` that
    /// finds the registration already taken out by another thread (another `unregister`, `unregister(object)`, a
    /// once registration's own retirement) still finds the runs to wait for.
    @inline(__always)
    func enter(_ registration: Registration) -> Int {
        // Sequentially consistent, like the store: a relaxed load that saw another thread's store would not be
        // ordered with this thread's check of `isActive`, and `unregister` could miss this run (a plain load on
        // x86 and a load-acquire on arm64 either way).
        if !registration.wasEntered.load(ordering: .sequentiallyConsistent) {
            registration.wasEntered.store(true, ordering: .sequentiallyConsistent)
        }
        let id = RunKey.id(registration.rawId.load(ordering: .relaxed))
        // Sequentially consistent: ordered before the caller's check that the registration is active.
        guard let object = registration.objectIdentifier else { return runs.push(id) }
        return runs.push(id, RunKey.object(object))
    }

    /// Ends the run entered at `depth`; everything the handler did happens before an `unregister` sees it ended.
    @inline(__always)
    func leave(to depth: Int) {
        runs.pop(to: depth)
    }

    /// Whether this thread is inside a handler.
    var isRunningHandler: Bool { !runs.isEmpty }

    /// Whether this thread runs a handler of one of `keys`, as far as another thread can tell.
    func isRunning(any keys: [UInt]) -> Bool {
        runs.contains(any: keys)
    }
}

/// How a run is entered in ``ThreadRuns/runs``: by the registration's raw id, and for a method registration also by
/// its recipient object's address with the top bit set (ids never reach it), so that `unregister(object)` waits
/// for runs of the object's registrations that another thread took out first. A run holds its recipient strongly
/// from just after it is entered, so an address found there is the live object's, or a released one's whose run
/// leaves at once.
enum RunKey {
    static func id(_ rawId: UInt64) -> UInt { UInt(truncatingIfNeeded: rawId) }
    static func object(_ object: ObjectIdentifier) -> UInt {
        UInt(bitPattern: object) | (1 << (UInt.bitWidth - 1))
    }
}

extension ThreadRuns {
    /// Every thread's runs, and the records of threads that have exited, for reuse. A record is never freed.
    private static let registry = Locked(Registry())

    private struct Registry {
        var all: [UnsafeMutablePointer<ThreadRuns>] = []
        var free: [UnsafeMutablePointer<ThreadRuns>] = []
    }

    /// Holds each thread's record; when a thread exits, its record goes back for another thread to use.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            let runs = raw.assumingMemoryBound(to: ThreadRuns.self)
            ThreadRuns.registry.withLock { $0.free.append(runs) }
        }
        precondition(status == 0, "PonyExpress: pthread_key_create failed (\(status))")
        return key
    }()

    /// The calling thread's runs, created on its first delivery.
    @inline(__always)
    static var current: UnsafeMutablePointer<ThreadRuns> {
        if let raw = pthread_getspecific(key) { return raw.assumingMemoryBound(to: ThreadRuns.self) }
        return makeCurrent()
    }

    /// The calling thread's runs, if it ever delivered.
    static var currentIfAny: UnsafeMutablePointer<ThreadRuns>? {
        pthread_getspecific(key)?.assumingMemoryBound(to: ThreadRuns.self)
    }

    @inline(never)
    private static func makeCurrent() -> UnsafeMutablePointer<ThreadRuns> {
        let runs = registry.withLock { registry in
            if let reused = registry.free.popLast() { return reused }
            let runs = UnsafeMutablePointer<ThreadRuns>.allocate(capacity: 1)
            runs.initialize(to: ThreadRuns())
            registry.all.append(runs)
            return runs
        }
        pthread_setspecific(key, runs)
        return runs
    }

    /// The addresses of the routes that posts on any thread are reading without the lock.
    static func heldRoutes() -> [UInt] {
        var held: [UInt] = []
        for runs in registry.withLock({ $0.all }) { runs.pointee.routes.forEach { held.append($0) } }
        return held
    }

    /// Waits until no other thread runs a handler of `registrations`, which the caller has just made inactive, or a
    /// run entered under one of `others` (``RunKey``): registrations another thread made inactive first.
    ///
    /// A thread that is itself inside a handler does not wait for threads that are waiting here too: that breaks
    /// every cycle of handlers unregistering each other's registrations. The calling thread's own runs are never
    /// waited for, so a handler may unregister its own registration.
    static func waitForRuns(of registrations: some Sequence<Registration>, orKeys others: [UInt] = []) {
        // Most registrations never ran: then there is nothing to wait for, and no list to build.
        let entered = { (registration: Registration) in
            registration.wasEntered.load(ordering: .sequentiallyConsistent)
        }
        guard !others.isEmpty || registrations.contains(where: entered) else { return }
        let targets = registrations.filter(entered).map { RunKey.id($0.rawId.load(ordering: .relaxed)) } + others
        let me = currentIfAny
        let insideHandler = me?.pointee.isRunningHandler ?? false
        if insideHandler { me!.pointee.isWaiting.store(true, ordering: .sequentiallyConsistent) }
        defer { if insideHandler { me!.pointee.isWaiting.store(false, ordering: .releasing) } }
        for runs in registry.withLock({ $0.all }) where runs != me {
            var pauses = 0
            while runs.pointee.isRunning(any: targets) {
                if insideHandler, runs.pointee.isWaiting.load(ordering: .sequentiallyConsistent) { break }
                pause(&pauses)
            }
        }
    }

    /// Yields at first, then sleeps longer and longer, up to a millisecond: handlers usually end within
    /// microseconds, but one may take much longer.
    private static func pause(_ pauses: inout Int) {
        pauses += 1
        if pauses < 64 {
            sched_yield()
        } else {
            usleep(UInt32(min(1_000, 10 << min(pauses - 64, 7))))
        }
    }
}
