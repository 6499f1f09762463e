import CHeapStats
import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

@testable import PonyExpressMonitor

/// The app's `register` and `unregister` wait for the monitor's registry lock: a snapshot holds it only for what
/// costs the number of sites, never the number of registrations (issue 36, `ponybench watch-cost`).
@Suite(.tags(.concurrency)) struct RegistryLockTests {
    private struct Tick: Mail {}
    private struct Tock: Mail {}

    /// Every live registration's id, as a snapshot lists them.
    private static func listed(_ snapshot: MonitorSnapshot) -> [RecipientId] {
        snapshot.mailTypes.flatMap { snapshot.recipients(of: $0.mailType).map(\.info.id) }.sorted()
    }

    private static func takeView(_ monitor: PostOfficeMonitor) -> RegistryView {
        RegistryView.take(from: monitor.registry, current: 1, first: 0, settings: monitor.settings)
    }

    @Test(
        "a registration made while a snapshot holds the registry's table copies a path of it, not the table",
        .skipped(
            under: .address, .thread,
            because: "the sanitizer's allocator replaces the C library's, whose heap figures the test reads"))
    func aRegistrationDuringASnapshotDoesNotCopyTheTable() {
        let office = PostOffice()
        let (_, monitor, _) = watching(office)
        defer { monitor.detach() }
        let count = 20_000
        for _ in 0..<count { office.register { (_: Tick) in } }
        // The heap's growth across one registration made while a snapshot holds the table, the least of five
        // snapshots (other tests allocate meanwhile): with a Dictionary, the table (20,000 entries of about 200
        // bytes) was copied, several MiB; a path of the tree is a few KiB.
        let grown = (0..<5).map { _ in
            let view = Self.takeView(monitor)
            let before = Int(pony_heap_bytes_in_use())
            office.register { (_: Tick) in }
            let grown = Int(pony_heap_bytes_in_use()) - before
            #expect(
                view.entries.count < monitor.registry.withLock { $0.entries.count }, "the snapshot's table is its own")
            return grown
        }.min()!
        #expect(grown < 256 << 10, "one registration grew the heap by \(grown) bytes while a snapshot held the table")
        #expect(monitor.registry.withLock { $0.entries.count } == count + 5)
    }

    @Test("registrations that come and go while a snapshot makes the order outside the lock are in the next one")
    func changesDuringAnOrderBuildReachTheNextSnapshot() {
        let office = PostOffice()
        let (_, monitor, _) = watching(office)
        defer { monitor.detach() }
        var ids = (0..<200).map { _ in office.register { (_: Tick) in } }
        _ = monitor.snapshot()
        // A snapshot takes the work under the lock; registrations change before it gives the order back.
        ids.append(office.register { (_: Tick) in })
        let work = monitor.registry.withLock { $0.takeOrderWork() }
        ids.append(office.register { (_: Tock) in })
        office.unregister(ids.removeFirst())
        let built = work.build()
        monitor.registry.withLock { $0.install(built, from: work) }
        #expect(Self.listed(monitor.snapshot()) == office.recipients().map(\.id).sorted())

        // More changes while it builds than patching is worth: what it gives back is dropped, and the next snapshot
        // builds from scratch.
        ids.append(office.register { (_: Tick) in })
        let overtaken = monitor.registry.withLock { $0.takeOrderWork() }
        for id in ids[..<100] { office.unregister(id) }
        monitor.registry.withLock { $0.install(overtaken.build(), from: overtaken) }
        #expect(monitor.registry.withLock { $0.currentOrder } == nil)
        #expect(Self.listed(monitor.snapshot()) == office.recipients().map(\.id).sorted())
        #expect(Self.listed(monitor.snapshot()).count == ids.count - 100)
    }

    @Test("snapshots taken on many threads at once while registrations churn list what the post office holds")
    func concurrentSnapshotsAgreeWithThePostOffice() {
        let office = PostOffice()
        let (_, monitor, _) = watching(office)
        defer { monitor.detach() }
        for _ in 0..<500 { office.register { (_: Tick) in } }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for _ in 0..<50 {
                if index.isMultiple(of: 2) {
                    office.unregister(office.register { (_: Tock) in })
                } else {
                    _ = monitor.snapshot()
                }
            }
        }
        #expect(Self.listed(monitor.snapshot()) == office.recipients().map(\.id).sorted())
    }
}
