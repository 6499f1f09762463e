import Dispatch
import Foundation
import PonyExpress
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a run of ``unregisterStress(_:threads:seconds:seed:)`` saw.
public struct UnregisterStressResult: Sendable, CustomStringConvertible {
    /// Handler runs in all.
    public var runs = 0
    /// Registrations made, and `unregister` calls (by id or by object) that returned.
    public var registrations = 0
    public var unregisters = 0
    /// Handler runs that started after an `unregister` of their registration had returned: the promise says none.
    public var lateStarts = 0
    /// Handler runs still going after an `unregister` of their registration, called outside every handler, had
    /// returned: the promise says none (called inside a handler, `unregister` may skip a thread that waits too).
    public var lateEnds = 0
    /// Whether every thread and queue finished before the deadline.
    public var finished = true
    /// When not every thread or queue finished: what each unfinished one was doing at the deadline, so that a
    /// hang names its place.
    public var unfinished: [String] = []

    public var description: String {
        "\(runs) handler runs, \(registrations) registrations, \(unregisters) unregisters, "
            + "\(lateStarts) late starts, \(lateEnds) late ends"
            + (unfinished.isEmpty ? "" : "; unfinished at the deadline: " + unfinished.joined(separator: ", "))
    }
}

/// The test sender the stress posts with: recipients filter on its exact instance or on its type.
private final class StressSender: Sendable {}
private final class OtherSender: Sendable {}

private struct StressMail: Mail {
    var depth: Int
}

/// One registration's witness: set by whoever unregistered it, right after `unregister` returned.
private final class Witness: Sendable {
    let returned = Atomic<Bool>(false)
    let returnedOutside = Atomic<Bool>(false)
}

/// A recipient object for the method registrations that `unregister(object)` removes and that its release prunes.
private final class StressListener: Sendable {
    let handler: @Sendable () -> Void
    init(_ handler: @escaping @Sendable () -> Void) { self.handler = handler }
    func receive(_: StressMail) { handler() }
}

private struct Entry: @unchecked Sendable {
    let id: RecipientId
    let witness: Witness
    var listener: StressListener?
}

/// A multi-threaded run of the kind a careful user writes against `unregister`'s promise: threads post (with and
/// without senders), register (inline, on serial and concurrent queues, typed and exact senders, once), unregister
/// by id and by object (two threads sometimes the same registration), release recipient objects, and attach and
/// detach taps; handlers post again and unregister one another. Each handler checks, when it starts and when it
/// ends, whether an `unregister` of its registration had already returned.
///
/// - Parameters:
///   - office: The post office to stress; a monitor may be attached to it.
///   - threads: How many threads do all of the above.
///   - seconds: How long they go on.
///   - seed: Where each thread's choices start, so that a failing run can be told apart.
public func unregisterStress(
    _ office: PostOffice, threads: Int = 6, seconds: Double = 2, seed: UInt64 = 1
) -> UnregisterStressResult {
    let runs = Atomic<Int>(0)
    let registrations = Atomic<Int>(0)
    let unregisters = Atomic<Int>(0)
    let lateStarts = Atomic<Int>(0)
    let lateEnds = Atomic<Int>(0)
    let pool = Locked<[Entry]>([])
    let senders = (StressSender(), StressSender())
    let serial = (0..<3).map { DispatchQueue(label: "stress serial \($0)") }
    let concurrent = DispatchQueue(label: "stress concurrent", attributes: .concurrent)
    let stop = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    let insideHandler = ThreadLocalFlag()
    // What each thread is doing (a `Phase`), and how many handlers are inside an `unregister` now.
    let phases = (0..<threads).map { _ in PhaseCell() }
    let unregistersInHandlers = Atomic<Int>(0)

    /// Takes an entry from the pool; with `keep`, leaves it there, so that another thread may unregister it too.
    @Sendable func pick(_ random: inout SplitMix, keep: Bool) -> Entry? {
        pool.withLock { pool -> Entry? in
            guard !pool.isEmpty else { return nil }
            let index = Int(random.next() % UInt64(pool.count))
            return keep ? pool[index] : pool.swapRemoveAt(index)
        }
    }

    @Sendable func unregister(_ entry: Entry, byObject: Bool) {
        let inside = insideHandler.isSet
        if inside { unregistersInHandlers.add(1, ordering: .relaxed) }
        defer { if inside { unregistersInHandlers.subtract(1, ordering: .relaxed) } }
        if byObject, let listener = entry.listener {
            office.unregister(listener)
        } else {
            office.unregister(entry.id)
        }
        entry.witness.returned.store(true, ordering: .releasing)
        if !insideHandler.isSet { entry.witness.returnedOutside.store(true, ordering: .releasing) }
        unregisters.add(1, ordering: .relaxed)
    }

    @Sendable func handlerBody(_ witness: Witness, _ mail: StressMail, _ random: inout SplitMix) {
        if witness.returned.load(ordering: .acquiring) { lateStarts.add(1, ordering: .relaxed) }
        runs.add(1, ordering: .relaxed)
        insideHandler.enter()
        let roll = random.next() % 100
        if roll < 10, mail.depth < 3 {
            office.post(StressMail(depth: mail.depth + 1), sender: senders.0)
        } else if roll < 13, let other = pick(&random, keep: true) {
            unregister(other, byObject: false)
        }
        insideHandler.leave()
        if witness.returnedOutside.load(ordering: .acquiring) { lateEnds.add(1, ordering: .relaxed) }
    }

    @Sendable func register(_ random: inout SplitMix, thread: Int) {
        let witness = Witness()
        let roll = random.next()
        let handlerSeed = roll
        let queue: DispatchQueue? =
            switch roll % 4 {
            case 0: nil
            case 1: serial[Int(roll / 4 % 3)]
            case 2: concurrent
            default: nil
            }
        let body: @Sendable (StressMail) -> Void = { mail in
            var random = SplitMix(seed: handlerSeed &+ UInt64(mail.depth))
            handlerBody(witness, mail, &random)
        }
        let options: RegistrationOptions = roll % 10 == 7 ? .once : []
        var listener: StressListener?
        let id: RecipientId
        switch roll / 16 % 5 {
        case 0:
            let object = StressListener { body(StressMail(depth: 9)) }
            listener = object
            id = office.register(queue: queue, object, StressListener.receive)
        case 1:
            id = office.register(queue: queue, sender: roll % 2 == 0 ? senders.0 : senders.1) { (mail: StressMail) in
                body(mail)
            }
        case 2:
            id = office.register(queue: queue) { (mail: StressMail, _: StressSender) in body(mail) }
        default:
            id = office.register(queue: queue, options: options) { (mail: StressMail) in body(mail) }
        }
        registrations.add(1, ordering: .relaxed)
        // Keep the pool small, so that unregisters find live registrations, and unregister what leaves it (outside
        // the pool's lock, which handlers take): the post office then holds about as many registrations as the pool.
        // Those that left it used to stay registered, and with ~1,900 of them every post fanned out to ~190 nested
        // posts a level, three levels deep: a run of 10.6 million handler runs whose serial queue had not drained 30 s
        // after the threads ended (PostOfficeMonitorConcurrencyTests, a local run at stop 50).
        let left = pool.withLock { pool -> [Entry] in
            pool.append(Entry(id: id, witness: witness, listener: listener))
            guard pool.count > 48 else { return [] }
            let left = Array(pool.prefix(pool.count - 48))
            pool.removeFirst(pool.count - 48)
            return left
        }
        for entry in left { unregister(entry, byObject: false) }
    }

    let finished = concurrently(threads, within: seconds + 60) { thread in
        var random = SplitMix(seed: seed &* 0x9E37_79B9 &+ UInt64(thread))
        let tap = ClosureTap { _ in }
        defer { phases[thread].value.store(Phase.done.rawValue, ordering: .relaxed) }
        while DispatchTime.now().uptimeNanoseconds < stop {
            let roll = random.next() % 100
            // The roll chooses the phase, and the phase what the thread does: one table, which the deadline's
            // message reads back.
            let phase = Phase(roll)
            phases[thread].value.store(phase.rawValue, ordering: .relaxed)
            switch phase {
            case .post:
                switch roll % 3 {
                case 0: office.post(StressMail(depth: 0))
                case 1: office.post(StressMail(depth: 0), sender: roll % 2 == 0 ? senders.0 : senders.1)
                default: office.post(StressMail(depth: 0), sender: OtherSender())
                }
            case .register:
                register(&random, thread: thread)
            case .unregisterById:
                if let entry = pick(&random, keep: roll % 3 == 0) { unregister(entry, byObject: false) }
            case .unregisterByObject:
                if let entry = pick(&random, keep: roll % 2 == 0) { unregister(entry, byObject: true) }
            case .release:
                // The pool lets go of a recipient object: its registrations are pruned by a later post.
                pool.withLock { pool in
                    guard !pool.isEmpty else { return }
                    pool[Int(random.next() % UInt64(pool.count))].listener = nil
                }
            case .attach:
                office.attach(tap)
            case .detach, .starting, .done:
                office.detach(tap)
            }
        }
        office.detach(tap)
    }
    var unfinished: [String] = []
    if !finished {
        for (thread, cell) in phases.enumerated() {
            let phase = Phase(rawValue: cell.value.load(ordering: .relaxed)) ?? .starting
            if phase != .done { unfinished.append("thread \(thread) in \(phase)") }
        }
        unfinished.append("\(unregistersInHandlers.load(ordering: .relaxed)) handlers inside unregister")
    }
    // Let every queued delivery run out before counting.
    var drained = true
    for (index, queue) in serial.enumerated() where !finishes(within: 30, { queue.sync {} }) {
        drained = false
        unfinished.append("serial queue \(index) not drained")
    }
    if !finishes(within: 30, { concurrent.sync(flags: .barrier) {} }) {
        drained = false
        unfinished.append("concurrent queue not drained")
    }
    // After a hang, an unregister could wait for the stuck run forever: the threads are left behind instead.
    if unfinished.isEmpty { for entry in pool.withLock({ $0 }) { office.unregister(entry.id) } }
    return UnregisterStressResult(
        runs: runs.load(ordering: .relaxed), registrations: registrations.load(ordering: .relaxed),
        unregisters: unregisters.load(ordering: .relaxed), lateStarts: lateStarts.load(ordering: .relaxed),
        lateEnds: lateEnds.load(ordering: .relaxed), finished: finished && drained, unfinished: unfinished)
}

/// One thread's ``Phase``, read by the thread that waits for it.
private final class PhaseCell: Sendable {
    let value = Atomic<Int>(Phase.starting.rawValue)
}

/// What a stress thread is doing, by the roll that chose it.
private enum Phase: Int, CustomStringConvertible {
    case starting, post, register, unregisterById, unregisterByObject, release, attach, detach, done

    init(_ roll: UInt64) {
        switch roll {
        case 0..<40: self = .post
        case 40..<60: self = .register
        case 60..<80: self = .unregisterById
        case 80..<88: self = .unregisterByObject
        case 88..<96: self = .release
        case 96..<98: self = .attach
        default: self = .detach
        }
    }

    var description: String {
        switch self {
        case .starting: "starting"
        case .post: "post"
        case .register: "register"
        case .unregisterById: "unregister(id)"
        case .unregisterByObject: "unregister(object)"
        case .release: "releasing an object"
        case .attach: "attach"
        case .detach: "detach"
        case .done: "done"
        }
    }
}

/// A small, fast random generator for the stress's choices: each thread has its own, from a seed.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Whether the calling thread is inside one of the stress's handlers, counted so that nested handlers nest.
private final class ThreadLocalFlag: Sendable {
    private let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
    private var depth: Int { Int(bitPattern: pthread_getspecific(key)) }
    var isSet: Bool { depth > 0 }
    func enter() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth + 1)) }
    func leave() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth - 1)) }
}

extension Array {
    /// Removes the element at `index` by moving the last one there: order does not matter in the pool.
    fileprivate mutating func swapRemoveAt(_ index: Int) -> Element {
        swapAt(index, count - 1)
        return removeLast()
    }
}
