import Foundation
import PonyExpress
import PonyExpressMonitor

/// Generic mail, as an app's generic helper wraps what it posts.
struct Envelope<Contents: Mail>: Mail {
    let contents: Contents
}

/// One bus under test in the generic shape: an adapter generic over its mail's contents, posting `Envelope<Contents>`
/// as an app's generic helper would. The rows are timed through ``GenericShape``, which is never specialized, so
/// every bus runs its unspecialized generic code: the shape of a helper compiled apart from its callers.
protocol EnvelopeBus<Contents>: AnyObject {
    associatedtype Contents: Mail
    associatedtype Token
    init()
    @discardableResult func subscribe(_ handler: @escaping @Sendable (Envelope<Contents>) -> Void) -> Token
    func unsubscribe(_ token: Token)
    func post(_ mail: Envelope<Contents>)
}

/// The floor in the generic shape: an array of closures called in turn, read as ``ClosureArrayBus`` reads its own
/// (no exclusivity check, no copy of the array on a post).
final class EnvelopeClosureArrayBus<Contents: Mail>: EnvelopeBus {
    @exclusivity(unchecked) private var handlers: [(Envelope<Contents>) -> Void] = []

    required init() {}

    func subscribe(_ handler: @escaping @Sendable (Envelope<Contents>) -> Void) -> Int {
        handlers.append(handler)
        return handlers.count - 1
    }

    func unsubscribe(_ token: Int) {
        handlers.removeLast()
    }

    func post(_ mail: Envelope<Contents>) {
        for index in 0..<handlers.count { handlers[index](mail) }
    }
}

/// The lock-and-dictionary bus in the generic shape: closures by mail type, behind a lock.
final class EnvelopeLockedDictionaryBus<Contents: Mail>: EnvelopeBus {
    private let lock = NSLock()
    private var handlers: [ObjectIdentifier: [(id: Int, fn: (Any) -> Void)]] = [:]
    private var nextId = 0

    required init() {}

    func subscribe(_ handler: @escaping @Sendable (Envelope<Contents>) -> Void) -> Int {
        lock.withLock {
            nextId += 1
            handlers[ObjectIdentifier(Envelope<Contents>.self), default: []].append(
                (nextId, { handler($0 as! Envelope<Contents>) }))
            return nextId
        }
    }

    func unsubscribe(_ token: Int) {
        lock.withLock { handlers[ObjectIdentifier(Envelope<Contents>.self)]?.removeAll { $0.id == token } }
    }

    func post(_ mail: Envelope<Contents>) {
        let recipients = lock.withLock { handlers[ObjectIdentifier(Envelope<Contents>.self)] ?? [] }
        for recipient in recipients { recipient.fn(mail) }
    }
}

/// NotificationCenter in the generic shape: the envelope in `userInfo`.
final class EnvelopeNotificationCenterBus<Contents: Mail>: EnvelopeBus {
    private static var benchName: Notification.Name { Notification.Name("Envelope") }
    private let center = NotificationCenter()

    required init() {}

    func subscribe(_ handler: @escaping @Sendable (Envelope<Contents>) -> Void) -> NSObjectProtocol {
        return center.addObserver(forName: Self.benchName, object: nil, queue: nil) { notification in
            if let mail = notification.userInfo?["mail"] as? Envelope<Contents> { handler(mail) }
        }
    }

    func unsubscribe(_ token: NSObjectProtocol) {
        center.removeObserver(token)
    }

    func post(_ mail: Envelope<Contents>) {
        center.post(name: Self.benchName, object: nil, userInfo: ["mail": mail])
    }
}

/// PonyExpress in the generic shape.
final class EnvelopePonyExpressBus<Contents: Mail>: EnvelopeBus {
    let office = PostOffice()

    required init() {}

    func subscribe(_ handler: @escaping @Sendable (Envelope<Contents>) -> Void) -> RecipientId {
        office.register(handler)
    }

    func unsubscribe(_ token: RecipientId) {
        office.unregister(token)
    }

    func post(_ mail: Envelope<Contents>) {
        office.post(mail)
    }
}

/// The workloads of the generic shape, timed on every ``EnvelopeBus``, compiled in two ways.
enum GenericShape {
    /// How the adapter's code is compiled.
    enum Compilation: CaseIterable, CustomStringConvertible {
        /// As an app's generic helper in the module that calls it is compiled in a release build: the optimizer
        /// specializes the adapter for its mail. `Envelope<M>`'s metadata is still made at run time, and
        /// PonyExpress's `post`, which is not inlinable, runs its generic code. The shape of the table and the
        /// one the targets judge.
        case asAnApp
        /// Never specialized: every bus runs its generic code through witness tables, the shape of a helper compiled
        /// apart from its callers. The worst case, shown beside the other; its floor pays for the generic code
        /// itself.
        case neverSpecialized

        var description: String {
            switch self {
            case .asAnApp: "as an app compiles it"
            case .neverSpecialized: "never specialized"
            }
        }
    }

    /// The workloads, in the order of the table.
    enum Workload: CaseIterable, CustomStringConvertible {
        case postToOne, postToHundred, registerUnregister

        var description: String {
            switch self {
            case .postToOne: "post to 1 recipient"
            case .postToHundred: "post to 100 recipients"
            case .registerUnregister: "register + unregister (1 other recipient)"
            }
        }

        var recipients: Int { self == .postToHundred ? 100 : 1 }
    }

    /// Nanoseconds per operation of `workload` on a fresh bus of type `B`, compiled as ``Compilation/asAnApp``: the
    /// optimizer is free to specialize it.
    @inline(never)
    static func measure<B: EnvelopeBus>(
        _ workload: Workload, on bus: B.Type, contents: B.Contents, settings: BenchSettings
    ) -> Double {
        time(workload, on: bus, contents: contents, settings: settings)
    }

    /// ``measure(_:on:contents:settings:)`` never specialized: the buses run the code a generic helper compiled
    /// apart from its callers runs.
    @_semantics("optimize.sil.specialize.generic.never")
    @inline(never)
    static func measureUnspecialized<B: EnvelopeBus>(
        _ workload: Workload, on bus: B.Type, contents: B.Contents, settings: BenchSettings
    ) -> Double {
        time(workload, on: bus, contents: contents, settings: settings)
    }

    @inline(__always)
    private static func time<B: EnvelopeBus>(
        _ workload: Workload, on _: B.Type, contents: B.Contents, settings: BenchSettings
    ) -> Double {
        let bus = B()
        let mail = Envelope(contents: contents)
        for _ in 0..<workload.recipients { bus.subscribe { blackHole($0) } }
        if workload == .registerUnregister {
            return settings.time { count in
                for _ in 0..<count { bus.unsubscribe(bus.subscribe { blackHole($0) }) }
            }
        }
        return settings.time { count in
            for _ in 0..<count { bus.post(mail) }
        }
    }

    /// Nanoseconds per post to `recipients` on a bare post office and on one with a monitor attached at default
    /// settings, timed in alternating batches, compiled as ``Compilation/asAnApp``.
    @inline(never)
    static func measureMonitored<Contents: Mail>(
        recipients: Int, contents: Contents, settings: BenchSettings
    ) -> (bare: Double, monitored: Double) {
        timeMonitored(recipients: recipients, contents: contents, settings: settings)
    }

    /// ``measureMonitored(recipients:contents:settings:)`` never specialized.
    @_semantics("optimize.sil.specialize.generic.never")
    @inline(never)
    static func measureMonitoredUnspecialized<Contents: Mail>(
        recipients: Int, contents: Contents, settings: BenchSettings
    ) -> (bare: Double, monitored: Double) {
        timeMonitored(recipients: recipients, contents: contents, settings: settings)
    }

    @inline(__always)
    private static func timeMonitored<Contents: Mail>(
        recipients: Int, contents: Contents, settings: BenchSettings
    ) -> (bare: Double, monitored: Double) {
        let bare = EnvelopePonyExpressBus<Contents>()
        let monitored = EnvelopePonyExpressBus<Contents>()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: monitored.office)
        for _ in 0..<recipients {
            _ = bare.subscribe { blackHole($0) }
            _ = monitored.subscribe { blackHole($0) }
        }
        let mail = Envelope(contents: contents)
        let times = Stopwatch.nanosecondsPerOperation(
            batchSeconds: settings.batchSeconds, samples: settings.samples,
            alternating: { count in for _ in 0..<count { bare.post(mail) } },
            with: { count in for _ in 0..<count { monitored.post(mail) } })
        return withExtendedLifetime(monitor) { (times.first, times.second) }
    }

    /// Every workload on every bus, and the monitor's overhead on the posts, in both compilations.
    static func rows(settings: BenchSettings) -> [GenericRow] {
        Compilation.allCases.flatMap { compilation in
            Workload.allCases.map { row($0, compilation, settings: settings) }
        }
    }

    private static func row(_ workload: Workload, _ compilation: Compilation, settings: BenchSettings) -> GenericRow {
        let contents = BenchMail(value: 7)
        func on<B: EnvelopeBus>(_ bus: B.Type) -> Double where B.Contents == BenchMail {
            switch compilation {
            case .asAnApp: measure(workload, on: bus, contents: contents, settings: settings)
            case .neverSpecialized: measureUnspecialized(workload, on: bus, contents: contents, settings: settings)
            }
        }
        var monitored: (bare: Double, monitored: Double)?
        if workload != .registerUnregister {
            monitored =
                switch compilation {
                case .asAnApp:
                    measureMonitored(recipients: workload.recipients, contents: contents, settings: settings)
                case .neverSpecialized:
                    measureMonitoredUnspecialized(
                        recipients: workload.recipients, contents: contents, settings: settings)
                }
        }
        return GenericRow(
            workload: workload.description, compilation: compilation,
            floor: on(EnvelopeClosureArrayBus<BenchMail>.self),
            lockedDictionary: on(EnvelopeLockedDictionaryBus<BenchMail>.self),
            notificationCenter: on(EnvelopeNotificationCenterBus<BenchMail>.self),
            ponyExpress: on(EnvelopePonyExpressBus<BenchMail>.self), monitored: monitored)
    }
}
