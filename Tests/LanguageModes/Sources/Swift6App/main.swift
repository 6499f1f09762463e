// An app in Swift 6 mode making every registration shape README shows, with and without a queue: what crosses to a
// queue is `Sendable`, as Swift 6 asks, and mail that is not is registered without one. CI builds it in debug and
// release and runs it: it exits 0 only when every registration got exactly the mail it should. Swift5App is the same
// app as a Swift 5 app writes it.

import Dispatch
import PonyExpress
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

let received = Mutex<[String: Int]>([:])
func got(_ shape: String) { received.withLock { $0[shape, default: 0] += 1 } }

// Mail of every kind, `Sendable` so that it may cross to a queue.
final class Ref: Sendable { let n = 0 }
struct Parcel: Mail { var ref = Ref() }
enum Signal: Mail {
    case on
    case off(Ref)
}
class Event: Mail, @unchecked Sendable { let n = 0 }
final class Tap: Event, @unchecked Sendable {}
class Courier: @unchecked Sendable {}
final class Van: Courier, @unchecked Sendable {}
struct Delivery: VerifiedMail {
    typealias RequiredSender = Courier
    var ref = Ref()
}
struct Refresh: Mail {}
struct Ping: Mail {}

/// Mail that is not `Sendable`: Swift 6 lets it be delivered on the posting thread only.
final class Box: Mail { var n = 0 }

// A recipient of every method shape.
final class Screen: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
    func event(_ e: Event) { got("\(name) method") }
    func eventFrom(_ e: Event, sender: Courier) { got("\(name) method, typed sender") }
    func eventFromOptional(_ e: Event, sender: Courier?) { got("\(name) method, optional sender") }
    func parcel(_ p: Parcel) { got("\(name) method, struct") }
    func signal(_ s: Signal) { got("\(name) method, enum") }
    func delivery(_ d: Delivery) { got("\(name) verified method") }
    func deliveryFrom(_ d: Delivery, courier: Courier) { got("\(name) verified method, sender") }
    func refresh() { got("\(name) method, no parameters") }
    func box(_ b: Box) { got("method, mail not Sendable") }
}

final class Inbox: MailRecipient, Sendable {
    func receive(mail: Parcel) { got("mail recipient") }
}

@MainActor final class MainScreen {
    func event(_ e: Event) {
        MainActor.assertIsolated()
        got("main actor method")
    }
}

/// A generic helper, as apps write around `register`.
func listen<M: Mail & Sendable>(
    to: M.Type, on queue: DispatchQueue?, in office: PostOffice, _ label: String
) -> RecipientId {
    office.register(queue: queue) { (_: M) in got(label) }
}

let office = PostOffice()
let worker = DispatchQueue(label: "worker")
let courier = Van()
let other = Courier()

// Every queue choice for the object's methods and the blocks.
for (name, queue) in [("inline", nil), ("queued", worker), ("main", DispatchQueue.main)] as [(String, DispatchQueue?)] {
    let screen = Screen(name)
    _ = Unmanaged.passRetained(screen)  // held weakly by the office: keep it for the run
    if let queue {
        office.register(queue: queue, screen, Screen.event)
        office.register(queue: queue, screen, Screen.eventFrom)
        office.register(queue: queue, screen, Screen.eventFromOptional)
        office.register(queue: queue, sender: courier, screen, Screen.event)
        office.register(queue: queue, screen, Screen.parcel)
        office.register(queue: queue, screen, Screen.signal)
        office.register(queue: queue, screen, Screen.delivery)
        office.register(queue: queue, screen, Screen.deliveryFrom)
        office.register(queue: queue, Refresh.self, screen, Screen.refresh)
        office.register(queue: queue) { (_: Event) in got("\(name) block") }
        office.register(queue: queue) { (_: Event, _: Courier) in got("\(name) block, typed sender") }
        office.register(queue: queue) { (_: Event, _: Courier?) in got("\(name) block, optional sender") }
        office.register(queue: queue, sender: courier) { (_: Parcel) in got("\(name) block, exact sender") }
        office.register(queue: queue) { (_: Signal) in got("\(name) block, enum") }
        office.register(queue: queue) { (_: Delivery, _: Courier) in got("\(name) verified block") }
        office.register(queue: queue, Refresh.self) { got("\(name) block, no parameters") }
        _ = listen(to: Tap.self, on: queue, in: office, "\(name) generic helper")
    } else {
        office.register(screen, Screen.event)
        office.register(screen, Screen.eventFrom)
        office.register(screen, Screen.eventFromOptional)
        office.register(sender: courier, screen, Screen.event)
        office.register(screen, Screen.parcel)
        office.register(screen, Screen.signal)
        office.register(screen, Screen.delivery)
        office.register(screen, Screen.deliveryFrom)
        office.register(Refresh.self, screen, Screen.refresh)
        office.register { (_: Event) in got("\(name) block") }
        office.register { (_: Event, _: Courier) in got("\(name) block, typed sender") }
        office.register { (_: Event, _: Courier?) in got("\(name) block, optional sender") }
        office.register(sender: courier) { (_: Parcel) in got("\(name) block, exact sender") }
        office.register { (_: Signal) in got("\(name) block, enum") }
        office.register { (_: Delivery, _: Courier) in got("\(name) verified block") }
        office.register(Refresh.self) { got("\(name) block, no parameters") }
        _ = listen(to: Tap.self, on: queue, in: office, "\(name) generic helper")
    }
}

// The main actor's shapes, the recipient protocol and the Signals-style options.
let inbox = Inbox()
@MainActor func registerOnTheMainActor() {
    let mainScreen = MainScreen()
    _ = Unmanaged.passRetained(mainScreen)
    office.register(mainScreen, MainScreen.event)
    let block: @MainActor @Sendable (Tap) -> Void = { _ in got("main actor block") }
    office.register(block)
}
MainActor.assumeIsolated { registerOnTheMainActor() }
office.register(inbox)
office.register(queue: worker, inbox)
office.register(options: .once) { (_: Event) in got("once") }
let boxScreen = Screen("box")
office.register(boxScreen, Screen.box)
office.register { (_: Box) in got("block, mail not Sendable") }
office.keepLastMail(Event.self)
office.setRecipientLimit(1_000, for: Event.self)

// The async shapes: a stream, and a wait for the next mail, each in a task of its own.
let asyncShapes = DispatchSemaphore(value: 0)
let parcels = office.mail(Parcel.self)
Task.detached {
    for await _ in parcels {
        got("stream")
        break
    }
    asyncShapes.signal()
}
Task.detached {
    if (try? await office.next(Ping.self, timeout: .seconds(60))) != nil { got("next") }
    asyncShapes.signal()
}
let waitStarted = ContinuousClock.now
while office.recipientCount(of: Ping.self) == 0 {
    guard ContinuousClock.now - waitStarted < .seconds(60) else {
        print("swift 6 mode: next(_:) did not register within 60 s")
        exit(1)
    }
    usleep(1_000)
}
office.post(Ping())

// The posts: a subclass of the class mail (so each registration for `Event` gets it), from a courier.
office.post(Tap(), sender: courier)
office.post(Parcel(), sender: courier)
office.post(Signal.off(Ref()))
office.post(Delivery(), sender: courier)
office.post(Refresh())
office.post(Event(), sender: other)
office.post(Box())
office.register(queue: worker, options: .replay) { (_: Event) in got("replay, queued") }
office.register(options: .replay) { (_: Event) in got("replay") }
let subscription = office.subscription(for: office.register { (_: Parcel) in got("subscription") })
office.post(Parcel())
subscription.cancel()
office.post(Parcel())

let expected: [String: Int] = {
    var counts: [String: Int] = [:]
    for name in ["inline", "queued", "main"] {
        // Tap from a courier, then Event from another courier.
        counts["\(name) method"] = 3  // Tap, Event, and the exact sender's Tap
        counts["\(name) method, typed sender"] = 2
        counts["\(name) method, optional sender"] = 2
        counts["\(name) method, struct"] = 3
        counts["\(name) method, enum"] = 1
        counts["\(name) verified method"] = 1
        counts["\(name) verified method, sender"] = 1
        counts["\(name) method, no parameters"] = 1
        counts["\(name) block"] = 2
        counts["\(name) block, typed sender"] = 2
        counts["\(name) block, optional sender"] = 2
        counts["\(name) block, exact sender"] = 1
        counts["\(name) block, enum"] = 1
        counts["\(name) verified block"] = 1
        counts["\(name) block, no parameters"] = 1
        counts["\(name) generic helper"] = 1
    }
    counts["main actor method"] = 2
    counts["main actor block"] = 1
    counts["mail recipient"] = 6
    counts["once"] = 1
    counts["replay"] = 1
    counts["replay, queued"] = 1
    counts["subscription"] = 1
    counts["stream"] = 1
    counts["next"] = 1
    counts["method, mail not Sendable"] = 1
    counts["block, mail not Sendable"] = 1
    return counts
}()

// Every queued delivery was scheduled by now: drain the worker, then the main queue, and compare.
worker.sync {}
for _ in 0..<2 where asyncShapes.wait(timeout: .now() + 60) == .timedOut {
    print("swift 6 mode: a stream or a wait got no mail within 60 s")
    exit(1)
}
DispatchQueue.main.async {
    let counts = received.withLock { $0 }
    var wrong: [String] = []
    for shape in Set(expected.keys).union(counts.keys).sorted() where counts[shape] != expected[shape] {
        wrong.append("\(shape): got \(counts[shape] ?? 0), expected \(expected[shape] ?? 0)")
    }
    if wrong.isEmpty {
        print("swift 6 mode: \(expected.count) registration shapes delivered as expected")
        exit(0)
    }
    print("swift 6 mode: wrong deliveries:\n  " + wrong.joined(separator: "\n  "))
    exit(1)
}
dispatchMain()
