import ArgumentParser
import CHeapStats
import Foundation
import PonyExpress
import PonyExpressMonitor

/// Issue 37's bound: what the history a late viewer is shown costs the app. The monitor keeps per-second rings of
/// `MonitorSettings.historyLength` seconds (plus two) for every mail type and queue in every shard, and for every
/// registration site, and its sighting ledger; a viewer that attaches is judged on that history at once. This run
/// measures the bytes the C allocator holds for them (`pony_heap_bytes_in_use`, which a freed page or a new thread's
/// arena does not move), against the same app without a monitor.
struct Retention: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract:
            "The memory of the monitor's retained history at 100,000 recipients, for each history length a late viewer may be shown."
    )

    @Option(help: "Mail types with live recipients, each posted once from every posting thread.")
    var mailTypes = 1_000

    @Option(help: "Live recipients, spread evenly over the mail types, half weak objects and half blocks.")
    var recipients = 100_000

    @Option(help: "Registration sites (the monitor keeps rows for MonitorSettings.siteCapacity of them, 256).")
    var sites = 500

    @Option(help: "Threads that post every mail type once, so that every shard holds every type.")
    var threads = 16

    @Option(help: "History lengths to measure, in seconds, comma-separated (MonitorSettings.historyLength, 1...3600).")
    var histories = "60,600,3600"

    func validate() throws {
        guard (1...16_384).contains(mailTypes) else { throw ValidationError("--mail-types must be 1...16384") }
        guard (mailTypes...10_000_000).contains(recipients) else {
            throw ValidationError("--recipients must be at least --mail-types, at most 10000000")
        }
        guard (1...100_000).contains(sites) else { throw ValidationError("--sites must be 1...100000") }
        guard (0...64).contains(threads) else { throw ValidationError("--threads must be 0...64") }
        guard let lengths, !lengths.isEmpty, lengths.allSatisfy({ (1...3_600).contains($0) }) else {
            throw ValidationError("--histories: expected seconds in 1...3600, comma-separated, got '\(histories)'")
        }
    }

    /// The history lengths asked for, or `nil` when one of them is not a whole number.
    private var lengths: [Int]? {
        let lengths = histories.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        return lengths.contains(nil) ? nil : lengths.compactMap { $0 }
    }

    func run() throws {
        DebugBuild.warn("ponybench retention")
        guard pony_heap_bytes_in_use() > 0 else {
            throw ValidationError("this C library does not report the heap in use (glibc 2.33 or later does)")
        }
        print(
            "\(recipients) live recipients over \(mailTypes) mail types from \(sites) sites, every type posted once "
                + "from each of \(threads) threads; bytes the C allocator holds, the app without a monitor subtracted\n"
        )
        let app = measure(history: nil)
        print("| history length s | monitor MiB (heap) | bytes a recipient | monitor's own estimate MiB | shards |")
        print("|---:|---:|---:|---:|---:|")
        var estimates: [(length: Int, parts: [(part: String, bytes: Int)])] = []
        for length in lengths ?? [] {
            let run = measure(history: length)
            estimates.append((length, run.parts))
            let bytes = run.heap - app.heap
            print(
                "| \(length) | \(Self.mebibytes(bytes)) | \(bytes / recipients) | \(Self.mebibytes(run.estimate)) "
                    + "| \(run.shards) |")
        }
        print("\nthe app alone (post office, recipients, their objects): \(Self.mebibytes(app.heap)) MiB")
        print("\nthe monitor's own estimate by part, MiB (the shards' parts summed over the shards)\n")
        print("| part | " + estimates.map { "\($0.length) s" }.joined(separator: " | ") + " |")
        print("|---|" + String(repeating: "---:|", count: estimates.count))
        for (index, part) in (estimates.first?.parts ?? []).enumerated() {
            print(
                "| \(part.part) | " + estimates.map { Self.mebibytes($0.parts[index].bytes) }.joined(separator: " | ")
                    + " |")
        }
        ledger()
    }

    /// The heap the app holds after registering, posting and one snapshot, with a monitor keeping `history` seconds
    /// (none when `nil`), and the monitor's own estimate.
    private func measure(history: Int?) -> (heap: Int, estimate: Int, shards: Int, parts: [(part: String, bytes: Int)])
    {
        let before = Int(pony_heap_bytes_in_use())
        let office = PostOffice()
        var monitor: PostOfficeMonitor?
        if let history {
            var settings = MonitorSettings()
            settings.historyLength = history
            settings.mailTypeCapacity = max(settings.mailTypeCapacity, mailTypes)
            monitor = PostOfficeMonitor(settings: settings, clock: ManualClock())
            monitor?.attach(to: office)
        }
        var objects: [Kept] = []
        let perType = recipients / mailTypes
        for index in 0..<mailTypes {
            let count = perType + (index < recipients % mailTypes ? 1 : 0)
            let made = (0..<count / 2).map { _ in Kept() }
            objects += made
            withOtherMailType(
                index,
                Register(office: office, objects: made, blocks: count - made.count, line: UInt(index % sites)))
        }
        // Every poster stays alive until all have posted: a thread that ended could hand its id, and so its shard, to
        // the next one.
        let done = DispatchGroup()
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            done.enter()
            Thread.detachNewThread { [mailTypes] in
                for index in 0..<mailTypes { withOtherMailType(index, Post(office: office)) }
                done.leave()
                release.wait()
            }
        }
        done.wait()
        for _ in 0..<threads { release.signal() }
        if let monitor { _ = monitor.snapshot() }
        let heap = Int(pony_heap_bytes_in_use()) - before
        let estimate = monitor?.estimatedMemoryBytes ?? 0
        let parts = monitor?.estimatedMemoryParts ?? []
        let shards = monitor?.shardCount ?? 0
        withExtendedLifetime((office, monitor, objects)) {}
        return (heap, estimate, shards, parts)
    }

    /// The sighting ledger full: 4,096 findings, each keyed by an id and its rule's parameters as long as the
    /// longest rule's (growingRegistrations: a site, a mail type, a kind and three parameters).
    private func ledger() {
        let before = Int(pony_heap_bytes_in_use())
        let ledger = SightingLedger()
        for index in 0..<SightingLedger.capacity {
            let key =
                "growingRegistrations|Left<Right<Left<Root>>>#\(index)|ShopKit/Views/Cart/CartBadgeObserver.swift:"
                + "\(index)|block|growingRegistrations.window=60,growingRegistrations.shortestWindow=4,"
                + "growingRegistrations.minimumGrowth=8"
            _ = ledger.sighted(key, at: UInt64(index) * 1_000)
        }
        let bytes = Int(pony_heap_bytes_in_use()) - before
        print(
            "the sighting ledger full (\(ledger.count) findings of \(SightingLedger.capacity)): "
                + "\(Self.mebibytes(bytes)) MiB, \(bytes / SightingLedger.capacity) bytes a finding")
        withExtendedLifetime(ledger) {}
    }

    private static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }

    final class Kept: Sendable {}

    /// Registers one mail type's recipients: its objects weakly, then `blocks` blocks, all at `line`.
    struct Register: MailTypeVisitor {
        let office: PostOffice
        let objects: [Kept]
        let blocks: Int
        let line: UInt

        func visit<T: EmptyMail>(_ type: T.Type) {
            for object in objects { office.register(object, { (_: Kept) in { (_: T) in } }, line: line) }
            for _ in 0..<blocks { office.register(type, {}, line: line) }
        }
    }

    /// Posts one mail type once.
    struct Post: MailTypeVisitor {
        let office: PostOffice

        func visit<T: EmptyMail>(_ type: T.Type) { office.post(T()) }
    }
}
