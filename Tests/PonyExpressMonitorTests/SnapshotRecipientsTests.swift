import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private struct Pong: Mail {}

private let ping = TypeIdentity(Ping.self)
private let pong = TypeIdentity(Pong.self)

/// A snapshot limited to some mail types' recipients, as the agent takes one for a viewer.
@Suite(.blocksItsThread, .tags(.concurrency)) struct SnapshotRecipientsTests {
    @Test func aLimitedSnapshotCarriesExactlyTheAskedRecipientsAndEveryOtherFigureOfTheFullOne() {
        let (office, monitor, clock) = watchedOffice()
        let recipient = TestRecipient()
        // The same object twice: a duplicate registration, and a finding both snapshots must report.
        office.register(Ping.self, recipient, TestRecipient.receive)
        office.register(Ping.self, recipient, TestRecipient.receive)
        let queue = DispatchQueue(label: "limited")
        office.register(queue: queue, { (_: Ping) in })
        for _ in 0..<3 { office.register { (_: Pong) in } }
        for _ in 0..<5 { office.post(Ping()) }
        office.post(Pong())
        // The queued deliveries finish before the snapshots, which must see the same counts.
        queue.sync {}
        clock.advance(seconds: 2)

        let full = monitor.snapshot()
        let limited = monitor.snapshot(keepingRecipientsOf: { $0 == ping })
        let none = monitor.snapshot(keepingRecipientsOf: { _ in false })

        #expect(full.recipients(of: ping).count == 3)
        #expect(full.recipients(of: pong).count == 3)
        #expect(limited.recipients(of: ping) == full.recipients(of: ping))
        #expect(limited.recipients(of: pong).isEmpty)
        #expect(none.recipients(of: ping).isEmpty && none.recipients(of: pong).isEmpty)
        #expect(!full.findings(of: .duplicateRegistration).isEmpty)
        for snapshot in [limited, none] {
            #expect(snapshot.time == full.time)
            #expect(snapshot.totals == full.totals)
            #expect(snapshot.mailTypes == full.mailTypes)
            #expect(snapshot.handlerLatency == full.handlerLatency)
            #expect(snapshot.queueWait == full.queueWait)
            #expect(snapshot.queues == full.queues)
            #expect(snapshot.sites == full.sites)
            #expect(snapshot.recentPrunes == full.recentPrunes)
            #expect(snapshot.findings == full.findings)
        }
        #expect(limited.stats(of: ping)?.recipients.byQueue == ["sync": 2, "limited": 1])
    }
}

/// The registry keeps the order of the last snapshot's registrations and patches it after a few changes: what a
/// viewer refreshing an app of many registrations pays when one of them came or went.
@Suite(.blocksItsThread) struct PatchedRegistrationOrderTests {
    private struct Tick: Mail {}

    /// What a snapshot says of the live registrations: by mail type, the ids, duplicate marks and counts; by site,
    /// the live counts.
    private static func registrations(_ snapshot: MonitorSnapshot) -> [String] {
        let types = snapshot.mailTypes.filter { $0.recipients.total > 0 }
        let sites = snapshot.sites.filter { $0.live > 0 }
        return types.sorted { $0.mailType.qualifiedName < $1.mailType.qualifiedName }.flatMap { stats in
            [
                "\(stats.mailType.name): \(stats.recipients.total) objects \(stats.recipients.objects) blocks "
                    + "\(stats.recipients.blocks) \(stats.recipients.byQueue.sorted { $0.key < $1.key })"
            ]
                + snapshot.recipients(of: stats.mailType).map { "  \($0.info.id) duplicate: \($0.isDuplicate)" }
        } + sites.map { "\($0.site?.description ?? "other") live \($0.live) blocks \($0.liveBlocks)" }.sorted()
    }

    @Test func aSnapshotAfterRegistrationsCameAndWentListsWhatAFreshOrderLists() {
        let office = PostOffice()
        let (_, patched, _) = watching(office)
        // A monitor attached now builds its order from scratch.
        func fresh() -> MonitorSnapshot {
            let (_, monitor, _) = watching(office)
            defer { monitor.detach() }
            return monitor.snapshot()
        }
        let recipient = TestRecipient()
        var ids: [RecipientId] = []
        for index in 0..<40 {
            ids.append(office.register(queue: DispatchQueue(label: "before.\(index % 3)")) { (_: Ping) in })
            ids.append(office.register { (_: Pong) in })
        }
        _ = patched.snapshot()
        // A few changes at a time: new registrations of a known and an unseen type, a new queue label, removals
        // from the middle of a group, a duplicate object made and unmade, a type left with none.
        let duplicate = office.register(Ping.self, recipient, TestRecipient.receive)
        office.register(Ping.self, recipient, TestRecipient.receive)
        let tick = office.register(queue: DispatchQueue(label: "after")) { (_: Tick) in }
        office.unregister(ids[10])
        office.unregister(ids[11])
        #expect(Self.registrations(patched.snapshot()) == Self.registrations(fresh()))
        office.unregister(duplicate)
        office.unregister(tick)
        for id in ids[20..<24] { office.unregister(id) }
        ids.append(office.register { (_: Pong) in })
        #expect(Self.registrations(patched.snapshot()) == Self.registrations(fresh()))
        // More changes than patching is worth (over 64 here): the order is built again.
        for id in ids[5...] { office.unregister(id) }
        #expect(Self.registrations(patched.snapshot()) == Self.registrations(fresh()))
        withExtendedLifetime(recipient) {}
    }
}
