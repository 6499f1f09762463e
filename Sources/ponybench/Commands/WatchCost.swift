import ArgumentParser
import Foundation
import Glibc
import PonyExpress
import PonyExpressAgent
import PonyExpressMonitor
import PonyExpressWire
import Synchronization

/// What watching costs an app's own calls: an app of many live recipients with the agent started registers,
/// unregisters and posts at a steady pace on its own thread, first with no viewer, then with one viewer at ponytop's
/// default refresh, then with many viewers asking as fast as the agent answers. Each call is timed; the slowest and
/// the 99th percentile of each phase are compared with the first phase's.
struct WatchCost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch-cost",
        abstract: "Time an app's register, unregister and post while viewers attached to its agent ask for snapshots.",
        discussion: """
            The app holds --recipients live recipients (half weak objects, half blocks) over 1,000 mail types and \
            does --pairs register+unregister pairs a second on one thread, posting one mail of the next of those \
            types after each pair (so each post reaches about --recipients/1,000 recipients, and every recipient \
            receives mail: the phase's thread posts every type once before it is timed), and sends a GET to an \
            HTTP endpoint the app serves on NIO's shared event loops (where a Hummingbird or Vapor app serves its \
            traffic), timing the whole response over one kept-alive connection. Phases of \
            --seconds each: no viewer, one viewer asking every 0.5 s (ponytop's default refresh, no type's \
            recipients), and --viewers viewers asking for full snapshots (every recipient) again as soon as each \
            answer arrives. The process's CPU time over each phase is shown in cores. Viewers are sockets in this process that read the \
            agent's replies without decoding them. Targets (issue 36): with one viewer the slowest call under 2 ms \
            and p99 within 1.5x of no viewer; with the crowd, the slowest call under 5 ms and the HTTP endpoint's \
            p99 within 2x of no viewer's. With --leak-every N, every Nth block registered is never unregistered: a \
            site that leaks, which the leak rule finds and the monitor then watches (issue 37).
            """)

    @Option(help: "Live recipients, half weak objects and half blocks, over 1,000 mail types.")
    var recipients = 100_000

    @Option(help: "Register+unregister pairs a second on the app's thread.")
    var pairs = 100

    @Option(help: "Seconds each phase lasts.")
    var seconds = 10.0

    @Option(help: "Viewers asking as fast as they are answered, in the last phase.")
    var viewers = 16

    @Option(help: "Keep every Nth block registered, never unregistered: a site leaking pairs/2/N a second. 0: none.")
    var leakEvery = 0

    func validate() throws {
        guard (1_000...10_000_000).contains(recipients) else {
            throw ValidationError("--recipients must be 1000...10000000")
        }
        guard (1...10_000).contains(pairs) else { throw ValidationError("--pairs must be 1...10000") }
        guard seconds.isFinite, (1...3_600).contains(seconds) else {
            throw ValidationError("--seconds must be 1...3600")
        }
        guard (0...1_000_000).contains(leakEvery) else { throw ValidationError("--leak-every must be 0...1000000") }
        guard (1...16).contains(viewers) else {
            throw ValidationError("--viewers must be 1...16 (the agent's default maximum)")
        }
    }

    func run() throws {
        DebugBuild.warn("ponybench watch-cost")
        let office = PostOffice()
        var template = Array("/tmp/ponybench-watch-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        let agent = try MonitorAgent.start(watching: office, runtimeDirectory: directory)
        defer {
            agent.stop()
            rmdir(directory)
        }
        // The app's loop registers its blocks at one site, which gets a row of the monitor's site table before the
        // table fills up, kept by one registration that stays (a leak at a site beyond the table's capacity counts in
        // the "other" row, which no rule judges).
        _ = AppLoop.registerBlock(office)
        let mailTypes = 1_000
        var objects: [WatchedRecipient] = []
        objects.reserveCapacity(recipients / 2)
        let posters = Posters()
        for index in 0..<mailTypes {
            let count = recipients / mailTypes + (index < recipients % mailTypes ? 1 : 0)
            let made = (0..<count / 2).map { _ in WatchedRecipient() }
            objects += made
            withOtherMailType(
                index, Populate(office: office, objects: made, blocks: count - made.count, posters: posters))
        }
        print(
            "\(office.recipientCount) live recipients over \(mailTypes) mail types; \(pairs) pairs a second, "
                + "each followed by a post to one type's \(recipients / mailTypes) recipients\n")

        let posts = posters.all
        let http = try HTTPProbe()
        // With a leak, the app's own judge looks after each phase, untimed: what it holds at the end is the leak
        // raised while it grew, held from the facts of later snapshots.
        var leaksHeld: [Int] = []
        func phase() -> AppLoop.Result {
            let result = AppLoop.run(
                office: office, pairs: pairs, posts: posts, http: http, seconds: seconds, leakEvery: leakEvery)
            if leakEvery > 0 { leaksHeld.append(agent.monitor.snapshot().findings(of: .growingRegistrations).count) }
            return result
        }
        let quiet = (result: phase(), snapshots: 0)
        let one = Self.withViewers(1, asking: .snapshot(recipientsOf: []), interval: 0.5, socket: agent.socketPath) {
            phase()
        }
        let crowd = Self.withViewers(viewers, asking: .fullSnapshot, interval: 0, socket: agent.socketPath) {
            phase()
        }
        withExtendedLifetime(objects) {}
        if leakEvery > 0 {
            print(
                "\(office.recipientCount - recipients - 1) blocks leaked at one site; leak findings held by the app's "
                    + "own judge after each phase: \(leaksHeld.map(String.init).joined(separator: ", "))\n")
        }

        print(
            "phase                     snapshots  cores  pairs    register p99/max ms  unregister p99/max ms   post p99/max ms"
                + "        HTTP p99/max ms")
        let phases = [("no viewer", quiet), ("1 viewer every 0.5 s", one), ("\(viewers) viewers in a loop", crowd)]
        for (name, phase) in phases {
            let figures = String(format: "%10d  %5.2f %6d", phase.snapshots, phase.result.cores, phase.result.pairs)
            let calls = [
                phase.result.register.cell, phase.result.unregister.cell, phase.result.post.cell,
                phase.result.http.cell,
            ]
            print(
                name.padding(toLength: 24, withPad: " ", startingAt: 0) + figures + "   "
                    + calls.joined(separator: "   "))
        }
        let slowestOne = one.result.slowest
        let slowestCrowd = crowd.result.slowest
        let ratio = one.result.worstP99Ratio(over: quiet.result)
        let httpRatio = crowd.result.http.p99 / max(quiet.result.http.p99, 1e-6)
        print(
            "\ntargets: one viewer, slowest call under 2 ms: \(Self.verdict(slowestOne < 2)) "
                + "(\(String(format: "%.3f", slowestOne)) ms); one viewer, each call's p99 within 1.5x of no viewer's: "
                + "\(Self.verdict(ratio <= 1.5)) (\(String(format: "%.2f", ratio))x); \(viewers) viewers, slowest call "
                + "under 5 ms: \(Self.verdict(slowestCrowd < 5)) (\(String(format: "%.3f", slowestCrowd)) ms); "
                + "\(viewers) viewers, the app's HTTP endpoint p99 within 2x of no viewer's: "
                + "\(Self.verdict(httpRatio <= 2)) (\(String(format: "%.2f", httpRatio))x)")
    }

    static func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    /// Runs `body` while `count` viewers ask the agent for snapshots, each again `interval` seconds after its last
    /// request (0: as soon as the answer arrives); returns what `body` returned and how many snapshots they got.
    static func withViewers<T>(
        _ count: Int, asking request: Request, interval: Double, socket: String, _ body: () -> T
    ) -> (result: T, snapshots: Int) {
        // Each asks first for the facts to judge, as a ponytop of protocol 1.9 does: the agent judges nothing for it.
        let judging = Request.factsToJudge(FindingJudge(judgingFactsWith: MonitorSettings()).floors)
        let viewers = (0..<count).compactMap { _ in
            DrainingViewer(path: socket, asking: request, interval: interval, first: judging)
        }
        precondition(viewers.count == count, "could not connect \(count) viewers to \(socket)")
        for viewer in viewers { viewer.start() }
        let result = body()
        return (result, viewers.reduce(0) { $0 + $1.stop() })
    }

    /// Registers a mail type's recipients: weak objects with a method, then blocks, from one site per kind; and
    /// keeps a way to post the type.
    struct Populate: MailTypeVisitor {
        let office: PostOffice
        let objects: [WatchedRecipient]
        let blocks: Int
        let posters: Posters

        func visit<T: EmptyMail>(_ type: T.Type) {
            for object in objects { office.register(type, object, WatchedRecipient.receive) }
            for _ in 0..<blocks { office.register(type, {}) }
            posters.all.append { [office] in office.post(T()) }
        }
    }

    /// One closure per mail type that posts it, made while the types are registered.
    final class Posters {
        var all: [@Sendable () -> Void] = []
    }
}

/// A weakly held recipient of the watched app.
final class WatchedRecipient: Sendable {
    func receive() {}
}

/// The app's own thread: register+unregister pairs at a steady pace, a post after each, every call timed. The thread
/// first posts every type once, untimed, so that the monitor counts every recipient on this thread's shard, as it
/// would in an app that has been running.
struct AppLoop {
    struct Calls {
        var durations: [Double] = []

        mutating func time(_ body: () -> Void) {
            let start = MonotonicClock.now()
            body()
            durations.append(Double(MonotonicClock.now() - start) / 1e6)
        }

        /// The 99th percentile, in milliseconds.
        var p99: Double {
            let sorted = durations.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        }

        /// "p99 / max" in milliseconds.
        var cell: String {
            String(format: "%8.3f / %8.3f", p99, durations.max() ?? 0)
        }
    }

    struct Result {
        /// The process's CPU time over the phase divided by its length: cores used.
        var cores = 0.0
        var register = Calls()
        var unregister = Calls()
        var post = Calls()
        /// How long a request to the HTTP endpoint on NIO's shared event loops took, response included.
        var http = Calls()
        var pairs: Int { register.durations.count }

        /// The slowest call of any kind, in milliseconds.
        var slowest: Double {
            (register.durations + unregister.durations + post.durations).max() ?? 0
        }

        /// The largest ratio of a kind of call's 99th percentile here to its 99th percentile in `baseline`.
        func worstP99Ratio(over baseline: Result) -> Double {
            zip([register, unregister, post], [baseline.register, baseline.unregister, baseline.post])
                .map { $0.p99 / max($1.p99, 1e-6) }.max() ?? 0
        }
    }

    /// Runs on a thread of its own, as an app's main thread would, and returns when done.
    static func run(
        office: PostOffice, pairs: Int, posts: [@Sendable () -> Void], http: HTTPProbe, seconds: Double,
        leakEvery: Int = 0
    ) -> Result {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for post in posts { post() }
            let object = WatchedRecipient()
            var result = Result()
            let period = UInt64(1e9 / Double(pairs))
            let start = MonotonicClock.now()
            let cpuAtStart = processCPUSeconds()
            let count = Int(seconds * Double(pairs))
            for index in 0..<count {
                let due = start + UInt64(index) * period
                let now = MonotonicClock.now()
                if due > now { usleep(UInt32((due - now) / 1_000)) }
                var id = RecipientId?.none
                result.register.time {
                    id =
                        index.isMultiple(of: 2)
                        ? office.register(object, WatchedRecipient.receiveCue) : registerBlock(office)
                }
                // Every `leakEvery`th block is kept: a leak at this site.
                let kept = leakEvery > 0 && !index.isMultiple(of: 2) && (index / 2).isMultiple(of: leakEvery)
                if !kept { result.unregister.time { office.unregister(id!) } }
                result.post.time { posts[index % posts.count]() }
                // Unanswered within 30 s counts as 30 s: the bench reports it rather than stopping.
                result.http.durations.append(http.roundTrip() ?? 30_000)
            }
            result.cores = (processCPUSeconds() - cpuAtStart) / (Double(MonotonicClock.now() - start) / 1e9)
            box.result = result
            done.signal()
        }
        thread.start()
        done.wait()
        return box.result
    }

    /// Registers a block for the loop's mail: every block the loop registers comes from this one site.
    static func registerBlock(_ office: PostOffice) -> RecipientId {
        office.register { (_: Cue) in }
    }

    /// User and system CPU time of the whole process, in seconds.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private final class ResultBox: @unchecked Sendable {
        var result = Result()
    }
}

/// The mail the app's loop posts.
struct Cue: Mail {}

extension WatchedRecipient {
    func receiveCue(_ cue: Cue) {}
}

/// A viewer on the agent's socket that asks for snapshots, reads each reply whole without decoding it, and
/// asks again after its interval: the agent's side of a ponytop, without ponytop's own work in this process.
final class DrainingViewer: @unchecked Sendable {
    private let fd: Int32
    private let interval: Double
    private let request: Request
    private let first: Request?
    private let stopped = Atomic<Bool>(false)
    private let answered = Atomic<Int>(0)
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    init?(path: String, asking request: Request, interval: Double, first: Request? = nil) {
        self.request = request
        self.first = first
        self.interval = interval
        guard let fd = connectUnixSocket(path: path) else { return nil }
        self.fd = fd
        // A reply slower than 30 s ends the viewer rather than the bench.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
    }

    func start() {
        let thread = Thread { [self] in
            defer { finished.signal() }
            guard let request = try? request.frame.bytes, readFrame() else { return }
            if let first, let bytes = try? first.frame.bytes, !sendAll(bytes) { return }
            while !stopped.load(ordering: .relaxed) {
                let asked = MonotonicClock.now()
                guard sendAll(request), readFrame() else { return }
                answered.add(1, ordering: .relaxed)
                let due = asked + UInt64(interval * 1e9)
                let now = MonotonicClock.now()
                if due > now { usleep(UInt32((due - now) / 1_000)) }
            }
        }
        self.thread = thread
        thread.start()
    }

    /// Stops asking and returns how many snapshots the agent answered.
    func stop() -> Int {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
        return answered.load(ordering: .relaxed)
    }

    private func sendAll(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads one frame (a 4-byte big-endian length, then that many bytes) and drops it.
    private func readFrame() -> Bool {
        var header = [UInt8](repeating: 0, count: 4)
        guard readExactly(&header, count: 4) else { return false }
        var remaining = header.reduce(0) { $0 << 8 | Int($1) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while remaining > 0 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min(remaining, $0.count), 0) }
            guard count > 0 else { return false }
            remaining -= count
        }
        return true
    }

    private func readExactly(_ buffer: inout [UInt8], count: Int) -> Bool {
        var read = 0
        while read < count {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + read, count - read, 0) }
            guard got > 0 else { return false }
            read += got
        }
        return true
    }
}
