import Foundation
import PonyExpress

/// One notification bus under test. Every workload is written once against this protocol.
protocol Bus: AnyObject, SendableMetatype {
    associatedtype Token
    static var name: String { get }
    /// Whether posts may come from any thread; `false` leaves the bus out of the two-thread row.
    static var postsFromAnyThread: Bool { get }
    init()
    /// Adds a recipient of `BenchMail`.
    @discardableResult func subscribe(_ handler: @escaping @Sendable (BenchMail) -> Void) -> Token
    /// Adds `recipient`'s `receive` as a recipient of `BenchMail`, holding the object weakly.
    func subscribe(_ recipient: BenchRecipient) -> Token
    /// Adds a recipient of the `index`-th other mail type, which the workloads never post.
    func subscribeOther(_ index: Int)
    func unsubscribe(_ token: Token)
    func post(_ mail: BenchMail)
    /// Returns once every post so far has been delivered; timed batches end with it.
    func drain()
}

extension Bus {
    static var postsFromAnyThread: Bool { true }

    /// Buses that deliver before `post` returns have nothing to wait for.
    func drain() {}

    /// An object's method, as an app without PonyExpress registers it: a block that holds the object weakly.
    func subscribe(_ recipient: BenchRecipient) -> Token {
        subscribe { [weak recipient] mail in recipient?.receive(mail) }
    }
}

/// The floor: an array of closures taking the mail's concrete type, called in turn. No lock, no lookup, no type
/// erasure, and not thread safe: only the two-thread row posts from two threads, and it only reads the array.
///
/// Nothing else may cost a post here, or every ratio to the floor flatters the bus it judges. So the array's accesses
/// are not checked for exclusivity at run time (a `swift_beginAccess` on every post), and ``post(_:)`` reads the
/// array where it is stored instead of copying it, as a `for handler in handlers` loop does (a retain and a release
/// of its buffer on every post).
final class ClosureArrayBus: Bus {
    static let name = "closure array (floor)"
    @exclusivity(unchecked) private var handlers: [(BenchMail) -> Void] = []

    required init() {}

    func subscribe(_ handler: @escaping @Sendable (BenchMail) -> Void) -> Int {
        handlers.append(handler)
        return handlers.count - 1
    }

    func subscribeOther(_ index: Int) {}

    func unsubscribe(_ token: Int) {
        handlers.removeLast()
    }

    func post(_ mail: BenchMail) {
        for index in 0..<handlers.count { handlers[index](mail) }
    }
}

/// The naive bus, the one most apps write first: a dictionary from type to closures, behind an `NSLock`. A post reads
/// its list under the lock and calls the closures after unlocking; an unregister removes its entry under the lock.
final class LockedDictionaryBus: Bus {
    static let name = "lock + dictionary bus"
    private let lock = NSLock()
    private var handlers: [ObjectIdentifier: [(id: Int, fn: (Any) -> Void)]] = [:]
    private var nextId = 0

    required init() {}

    @discardableResult
    func subscribe<M>(_ type: M.Type, _ handler: @escaping (M) -> Void) -> Int {
        lock.withLock {
            nextId += 1
            handlers[ObjectIdentifier(type), default: []].append((nextId, { handler($0 as! M) }))
            return nextId
        }
    }

    func subscribe(_ handler: @escaping @Sendable (BenchMail) -> Void) -> Int {
        subscribe(BenchMail.self, handler)
    }

    func subscribeOther(_ index: Int) {
        struct Subscriber: MailTypeVisitor {
            let bus: LockedDictionaryBus
            func visit<T: EmptyMail>(_ type: T.Type) { bus.subscribe(type) { blackHole($0) } }
        }
        withOtherMailType(index, Subscriber(bus: self))
    }

    func unsubscribe(_ token: Int) {
        lock.withLock { handlers[ObjectIdentifier(BenchMail.self)]?.removeAll { $0.id == token } }
    }

    func post(_ mail: BenchMail) {
        let recipients = lock.withLock { handlers[ObjectIdentifier(BenchMail.self)] ?? [] }
        for recipient in recipients { recipient.fn(mail) }
    }
}

/// Foundation's NotificationCenter, observed with `addObserver(forName:object:queue:using:)`, with the mail carried in
/// `userInfo` as apps do.
final class NotificationCenterBus: Bus {
    static let name = "NotificationCenter"
    private static let benchName = Notification.Name("BenchMail")
    private let center = NotificationCenter()

    required init() {}

    func subscribe(_ handler: @escaping @Sendable (BenchMail) -> Void) -> NSObjectProtocol {
        return center.addObserver(forName: Self.benchName, object: nil, queue: nil) { notification in
            if let mail = notification.userInfo?["mail"] as? BenchMail { handler(mail) }
        }
    }

    func subscribeOther(_ index: Int) {
        _ = center.addObserver(forName: Notification.Name("Other\(index)"), object: nil, queue: nil) { blackHole($0) }
    }

    func unsubscribe(_ token: NSObjectProtocol) {
        center.removeObserver(token)
    }

    func post(_ mail: BenchMail) {
        center.post(name: Self.benchName, object: nil, userInfo: ["mail": mail])
    }
}

/// PonyExpress, optionally with a tap attached.
final class PonyExpressBus: Bus {
    static let name = "PonyExpress"
    let office = PostOffice()

    required init() {}

    func subscribe(_ handler: @escaping @Sendable (BenchMail) -> Void) -> RecipientId {
        office.register(handler)
    }

    func subscribe(_ recipient: BenchRecipient) -> RecipientId {
        office.register(recipient, BenchRecipient.receive)
    }

    func subscribeOther(_ index: Int) {
        struct Subscriber: MailTypeVisitor {
            let office: PostOffice
            func visit<T: EmptyMail>(_ type: T.Type) { office.register { (mail: T) in blackHole(mail) } }
        }
        withOtherMailType(index, Subscriber(office: office))
    }

    func unsubscribe(_ token: RecipientId) {
        office.unregister(token)
    }

    func post(_ mail: BenchMail) {
        office.post(mail)
    }
}
