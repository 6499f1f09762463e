import Foundation
import PonyExpress

/// What one row of the table measures, written once for every bus.
enum Workload: CustomStringConvertible {
    /// One post delivered synchronously to `recipients` recipients.
    case post(recipients: Int)
    /// One post to one recipient while `others` other mail types each have a recipient.
    case postAmongTypes(others: Int)
    /// Registering a recipient and unregistering it again.
    case registerUnregister
    /// Registering an object's method and unregistering it again. Buses without methods of their own register a
    /// block that holds the object weakly.
    case registerUnregisterMethod
    /// Two threads posting at once to one recipient; time per post over both threads.
    case twoThreads

    var description: String {
        switch self {
        case .post(let recipients): "post to \(recipients) recipient\(recipients == 1 ? "" : "s")"
        case .postAmongTypes(let others): "post to 1, \(others.formatted()) other types registered"
        case .registerUnregister: "register + unregister"
        case .registerUnregisterMethod: "register + unregister, an object's method"
        case .twoThreads: "2 threads posting at once"
        }
    }

    /// Whether a bus of type `B` can run this workload: the two-thread row needs posts from any thread.
    func applies<B: Bus>(to _: B.Type) -> Bool {
        if case .twoThreads = self { B.postsFromAnyThread } else { true }
    }

    /// Nanoseconds per operation of this workload on a fresh bus of type `B`, after `prepare` has run on it, or
    /// `nil` when the bus cannot run it.
    func measureIfApplicable<B: Bus>(_ bus: B.Type, settings: BenchSettings) -> Double? {
        applies(to: bus) ? measure(bus, settings: settings) : nil
    }

    /// Nanoseconds per operation of this workload on a fresh bus of type `B`, after `prepare` has run on it.
    func measure<B: Bus>(_: B.Type, settings: BenchSettings, prepare: (B) -> Void = { _ in }) -> Double {
        let bus = B()
        prepare(bus)
        let mail = BenchMail(value: 7)
        switch self {
        case .post(let recipients):
            for _ in 0..<recipients { bus.subscribe { blackHole($0) } }
            return settings.time { count in
                for _ in 0..<count { bus.post(mail) }
                bus.drain()
            }
        case .postAmongTypes(let others):
            for index in 0..<others { bus.subscribeOther(index) }
            bus.subscribe { blackHole($0) }
            return settings.time { count in
                for _ in 0..<count { bus.post(mail) }
                bus.drain()
            }
        case .registerUnregister:
            return settings.time { count in
                for _ in 0..<count { bus.unsubscribe(bus.subscribe { blackHole($0) }) }
            }
        case .registerUnregisterMethod:
            let recipient = BenchRecipient()
            return withExtendedLifetime(recipient) {
                settings.time { count in for _ in 0..<count { bus.unsubscribe(bus.subscribe(recipient)) } }
            }
        case .twoThreads:
            bus.subscribe { blackHole($0) }
            let post: @Sendable () -> Void = { [bus = UncheckedBox(bus)] in bus.value.post(mail) }
            return settings.time { count in
                let perThread = max(count / 2, 1)
                let group = DispatchGroup()
                for _ in 0..<2 {
                    group.enter()
                    Thread.detachNewThread {
                        for _ in 0..<perThread { post() }
                        group.leave()
                    }
                }
                group.wait()
                bus.drain()
            }
        }
    }
}

extension Workload {
    /// Nanoseconds per post of `post(recipients:)` on two PonyExpress buses that differ only by what `prepare` did
    /// to the second, timed in alternating batches.
    static func measurePair(
        recipients: Int, settings: BenchSettings, prepare: (PonyExpressBus) -> Void
    ) -> (bare: Double, prepared: Double) {
        let bare = PonyExpressBus()
        let prepared = PonyExpressBus()
        prepare(prepared)
        for _ in 0..<recipients {
            _ = bare.subscribe { blackHole($0) }
            _ = prepared.subscribe { blackHole($0) }
        }
        return timePosts(to: bare, alternatingWith: prepared, settings: settings)
    }

    /// Nanoseconds per post to one recipient on two PonyExpress buses that differ only by what `prepare` did to the
    /// second, posting `types` mail types in turn (2 to 8), each to its own recipient: no post repeats the one before.
    static func measureInTurnPair(
        types: Int, settings: BenchSettings, prepare: (PonyExpressBus) -> Void
    ) -> (bare: Double, prepared: Double) {
        let bare = PonyExpressBus()
        let prepared = PonyExpressBus()
        prepare(prepared)
        for bus in [bare, prepared] {
            for index in 0..<types { TurnMails.register(index, on: bus.office) }
        }
        let times = Stopwatch.nanosecondsPerOperation(
            batchSeconds: settings.batchSeconds, samples: settings.samples,
            alternating: { count in for index in 0..<count { TurnMails.post(index % types, to: bare.office) } },
            with: { count in for index in 0..<count { TurnMails.post(index % types, to: prepared.office) } })
        return (times.first, times.second)
    }

    /// Nanoseconds per post to one recipient registered as an object and its method, and to one registered as a
    /// block, timed in alternating batches.
    static func measureObjectRecipient(settings: BenchSettings) -> (object: Double, block: Double) {
        let withObject = PonyExpressBus()
        let withBlock = PonyExpressBus()
        let recipient = BenchRecipient()
        withObject.office.register(recipient, BenchRecipient.receive)
        _ = withBlock.subscribe { blackHole($0) }
        defer { withExtendedLifetime(recipient) {} }
        return timePosts(to: withObject, alternatingWith: withBlock, settings: settings)
    }

    /// Nanoseconds per post of the same mail to two buses, timed in alternating batches.
    private static func timePosts(
        to first: PonyExpressBus, alternatingWith second: PonyExpressBus, settings: BenchSettings
    ) -> (Double, Double) {
        let mail = BenchMail(value: 7)
        let times = Stopwatch.nanosecondsPerOperation(
            batchSeconds: settings.batchSeconds, samples: settings.samples,
            alternating: { count in for _ in 0..<count { first.post(mail) } },
            with: { count in for _ in 0..<count { second.post(mail) } })
        return (times.first, times.second)
    }
}

/// How long and how often to time each row.
struct BenchSettings {
    var batchSeconds = 0.1
    var samples = 5

    func time(_ operation: (_ count: Int) -> Void) -> Double {
        Stopwatch.nanosecondsPerOperation(batchSeconds: batchSeconds, samples: samples, operation)
    }
}

/// Hands a bus to the posting threads; every bus under test is safe to post to from several threads except the
/// floor, whose array is only read.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// One of eight distinct mail types, by its tag.
struct TurnMail<Tag>: Mail {}

/// Registers for and posts the eight ``TurnMail`` types by number, for
/// ``Workload/measureInTurnPair(types:settings:prepare:)``.
enum TurnMails {
    static func register(_ index: Int, on office: PostOffice) {
        func add<T>(_: T.Type) { office.register { (mail: TurnMail<T>) in blackHole(mail) } }
        switch index {
        case 0: add(Int8.self)
        case 1: add(Int16.self)
        case 2: add(Int32.self)
        case 3: add(Int64.self)
        case 4: add(UInt8.self)
        case 5: add(UInt16.self)
        case 6: add(UInt32.self)
        default: add(UInt64.self)
        }
    }

    @inline(__always)
    static func post(_ index: Int, to office: PostOffice) {
        switch index {
        case 0: office.post(TurnMail<Int8>())
        case 1: office.post(TurnMail<Int16>())
        case 2: office.post(TurnMail<Int32>())
        case 3: office.post(TurnMail<Int64>())
        case 4: office.post(TurnMail<UInt8>())
        case 5: office.post(TurnMail<UInt16>())
        case 6: office.post(TurnMail<UInt32>())
        default: office.post(TurnMail<UInt64>())
        }
    }
}
