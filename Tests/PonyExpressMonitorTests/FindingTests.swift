import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private struct Pong: Mail {}

private let ping = TypeIdentity(Ping.self)

/// Each finding is triggered by a small deliberate scenario, and the same scenario done right triggers nothing.
@Suite struct FindingTests {
    // MARK: - Over-subscription

    @Test func reportsAMailTypeAboveTheRecipientThreshold() throws {
        let office = PostOffice()
        let (_, monitor, _) = watching(office) { $0.oversubscriptionThreshold = 10 }
        var ids: [RecipientId] = []
        for _ in 0..<11 { ids.append(office.register { (_: Ping) in }) }

        let finding = try #require(monitor.snapshot().findings(of: .oversubscribed).first)
        #expect(finding.mailType == ping)
        #expect(finding.category == .oversubscription)
        #expect(finding.evidence(named: "live recipients") == 11)
        #expect(finding.evidence(named: "threshold") == 10)
        #expect(finding.site?.fileID == "PonyExpressMonitorTests/FindingTests.swift")
        #expect(finding.explanation == "Ping has 11 live recipients, more than the threshold of 10")

        office.unregister(ids[0])
        #expect(monitor.snapshot().findings.isEmpty, "10 recipients are within the threshold")
    }

    @Test func reportsTheSameObjectRegisteredTwiceForOneMailType() throws {
        let office = PostOffice()
        let (_, monitor, _) = watching(office)
        let twice = TestRecipient()
        let other = TestRecipient()
        let first = office.register(Ping.self, twice, TestRecipient.receive)
        let second = office.register(Ping.self, twice, TestRecipient.receive)
        office.register(Ping.self, other, TestRecipient.receive)
        office.register(Pong.self, twice, TestRecipient.receive)

        let snapshot = monitor.snapshot()
        let finding = try #require(snapshot.findings(of: .duplicateRegistration).first)
        #expect(snapshot.findings.count == 1)
        #expect(finding.mailType == ping)
        #expect(finding.subject == "\(first), \(second)")
        #expect(finding.evidence(named: "registrations") == 2)
        #expect(snapshot.recipients(of: ping).map(\.isDuplicate) == [true, true, false])
        #expect(snapshot.recipients(of: TypeIdentity(Pong.self)).map(\.isDuplicate) == [false])

        office.unregister(second)
        #expect(monitor.snapshot().findings.isEmpty)
        #expect(monitor.snapshot().recipients(of: ping).map(\.isDuplicate) == [false, false])
    }

    @Test(.skipped(under: .address, because: "ASan's quarantine keeps the allocator from reusing the freed address"))
    func doesNotMistakeAReusedAddressForADuplicate() {
        let office = PostOffice()
        let (_, monitor, _) = watching(office)
        let tap = RecordingTap()
        office.attach(tap)
        // Each recipient dies without unregistering; its registration stays until pruned, and the next recipient
        // is likely to get the same address.
        for _ in 0..<200 {
            let recipient = TestRecipient()
            office.register(Ping.self, recipient, TestRecipient.receive)
        }
        let identities = Set(tap.registered.compactMap(\.objectIdentifier))
        #expect(identities.count < 200, "the allocator reused addresses, so the scenario tests something")
        #expect(monitor.snapshot().findings(of: .duplicateRegistration).isEmpty)
    }

    // MARK: - Leaks

    @Test func reportsLiveRegistrationsThatKeepGrowingWhileMailIsPosted() throws {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office)
        var kept: [TestRecipient] = []
        for _ in 0..<12 {
            for _ in 0..<5 {
                let recipient = TestRecipient()
                kept.append(recipient)
                office.register(Ping.self, recipient, TestRecipient.receive)
            }
            office.post(Ping())
            clock.advance(seconds: 1)
        }

        let snapshot = monitor.snapshot()
        let finding = try #require(snapshot.findings(of: .growingRegistrations).first)
        #expect(snapshot.findings.map(\.kind) == [.growingRegistrations])
        #expect(finding.category == .leak)
        #expect(finding.mailType == ping)
        #expect(finding.site?.fileID == "PonyExpressMonitorTests/FindingTests.swift")
        #expect(finding.evidence(named: "live") == 60)
        #expect(finding.evidence(named: "growth") == 50)
        #expect(finding.evidence(named: "seconds with growth") == 10)
        #expect(kept.count == 60)
    }

    @Test func ignoresRegistrationsThatComeAndGoOrArriveInOneBurst() {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office)
        var current: [RecipientId] = []
        var burst: [TestRecipient] = []
        for second in 0..<15 {
            for id in current { office.unregister(id) }
            current = (0..<5).map { _ in office.register { (_: Ping) in } }
            if second == 6 {
                for _ in 0..<60 {
                    let recipient = TestRecipient()
                    burst.append(recipient)
                    office.register(Pong.self, recipient, TestRecipient.receive)
                }
            }
            office.post(Ping())
            office.post(Pong())
            clock.advance(seconds: 1)
        }
        #expect(monitor.snapshot().findings.isEmpty)
        #expect(burst.count == 60)
    }

    @Test func ignoresGrowthWhileNothingIsPosted() {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office)
        var kept: [TestRecipient] = []
        for _ in 0..<12 {
            for _ in 0..<5 {
                let recipient = TestRecipient()
                kept.append(recipient)
                office.register(Ping.self, recipient, TestRecipient.receive)
            }
            clock.advance(seconds: 1)
        }
        #expect(monitor.snapshot().findings.isEmpty)
    }

    @Test func reportsBlocksThatAccumulateWithoutEverBeingUnregistered() throws {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office)
        for _ in 0..<12 {
            for _ in 0..<5 { office.register { (_: Ping) in } }
            office.post(Ping())
            clock.advance(seconds: 1)
        }

        let snapshot = monitor.snapshot()
        let finding = try #require(snapshot.findings(of: .accumulatingBlocks).first)
        #expect(snapshot.findings(of: .growingRegistrations).isEmpty, "one finding per site")
        #expect(finding.evidence(named: "live blocks") == 60)
        #expect(finding.evidence(named: "growth") == 50)
        #expect(finding.site?.fileID == "PonyExpressMonitorTests/FindingTests.swift")
    }

    @Test func reportsRegistrationsPrunedAtAHighRateFromOneSite() throws {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office) { $0.pruneRateThreshold = 5 }
        for _ in 0..<10 {
            for _ in 0..<10 {
                let recipient = TestRecipient()
                office.register(Ping.self, recipient, TestRecipient.receive)
            }
            office.prune()
            clock.advance(seconds: 1)
        }

        let finding = try #require(monitor.snapshot().findings(of: .highPruneRate).first)
        #expect(finding.category == .leak)
        #expect(finding.evidence(named: "prunes per second") == 10)
        #expect(finding.evidence(named: "prunes in window") == 100)
    }

    @Test func ignoresRecipientsThatUnregisterBeforeTheyDie() {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office) { $0.pruneRateThreshold = 5 }
        for _ in 0..<10 {
            for _ in 0..<10 {
                let recipient = TestRecipient()
                office.register(Ping.self, recipient, TestRecipient.receive)
                office.unregister(recipient)
            }
            office.post(Ping())
            office.prune()
            clock.advance(seconds: 1)
        }
        #expect(monitor.snapshot().findings.isEmpty)
    }

    // MARK: - Slow

    @Test func reportsARecipientWhoseHandlerDominatesItsMailType() throws {
        let office = PostOffice()
        let (_, monitor, _) = watching(office) { $0.slowRecipientMinimumMean = 200_000 }
        office.register { (_: Ping) in }
        let slow = office.register { (_: Ping) in spin(nanoseconds: 1_000_000) }
        office.register { (_: Ping) in }
        for _ in 0..<20 { office.post(Ping()) }

        let finding = try #require(monitor.snapshot().findings(of: .slowRecipient).first)
        #expect(finding.category == .slow)
        #expect(finding.subject == slow.description)
        #expect((finding.evidence(named: "share of handler time") ?? 0) >= 0.8)
        #expect((finding.evidence(named: "mean handler ns") ?? 0) >= 1_000_000)
        #expect(finding.evidence(named: "deliveries") == 20)
    }

    @Test func ignoresEvenlyFastHandlersAndALoneSlowOne() {
        let office = PostOffice()
        let (_, monitor, _) = watching(office) { $0.slowRecipientMinimumMean = 200_000 }
        office.register { (_: Ping) in }
        office.register { (_: Ping) in }
        office.register { (_: Pong) in spin(nanoseconds: 1_000_000) }
        for _ in 0..<20 {
            office.post(Ping())
            office.post(Pong())
        }
        #expect(monitor.snapshot().findings.isEmpty)
    }

    /// Each second, mail waits on a suspended queue for `waits[second]` before the queue runs it.
    private func queueScenario(waits: [UInt64]) -> MonitorSnapshot {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office)
        let queue = DispatchQueue(label: "monitor.tests.backlog")
        office.register(queue: queue) { (_: Ping) in }
        var expected: UInt64 = 0
        for wait in waits {
            queue.suspend()
            for _ in 0..<3 { office.post(Ping()) }
            expected += 3
            spin(nanoseconds: wait)
            queue.resume()
            #expect(waitUntil { monitor.snapshot().totals.deliveries == expected })
            clock.advance(seconds: 1)
        }
        return monitor.snapshot()
    }

    @Test func reportsAQueueWhoseWaitKeepsRising() throws {
        let snapshot = queueScenario(waits: (0..<12).map { UInt64($0) * 10_000_000 })
        let finding = try #require(
            snapshot.findings(of: .risingQueueWait).first, "mean waits: \(snapshot.queues.first?.waitHistory ?? [])")
        #expect(snapshot.findings.map(\.kind) == [.risingQueueWait])
        #expect(finding.subject == "monitor.tests.backlog")
        #expect(finding.mailType == ping)
        #expect((finding.evidence(named: "late mean wait ns") ?? 0) >= 90_000_000)
        #expect((finding.evidence(named: "early mean wait ns") ?? .infinity) < 90_000_000)
    }

    @Test func ignoresAQueueWithASteadyWait() {
        let snapshot = queueScenario(waits: Array(repeating: 30_000_000, count: 12))
        #expect(snapshot.findings.isEmpty)
        #expect(snapshot.queues.first?.waitHistory.count == 12)
    }

    // MARK: - Healthy load

    @Test(.skipped(under: .address, because: "ASan's slowdown makes a steady load look slow"))
    func aHealthySteadyLoadProducesNoFindings() {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office)
        let queue = DispatchQueue(label: "monitor.tests.healthy")
        let listeners = (0..<20).map { _ in TestRecipient() }
        for listener in listeners { office.register(Ping.self, listener, TestRecipient.receive) }
        office.register(queue: queue) { (_: Pong) in }
        office.register { (_: Pong) in }
        var delivered: UInt64 = 0
        for _ in 0..<20 {
            let screen = TestRecipient()
            let screenId = office.register(Pong.self, screen, TestRecipient.receive)
            let block = office.register { (_: Ping) in }
            let before = monitor.snapshot().totals.deliveries
            for _ in 0..<50 {
                office.post(Ping())
                office.post(Pong())
            }
            delivered = before + 50 * 21 + 50 * 3
            #expect(waitUntil { monitor.snapshot().totals.deliveries == delivered })
            office.unregister(screenId)
            office.unregister(block)
            clock.advance(seconds: 1)
        }
        let snapshot = monitor.snapshot()
        #expect(snapshot.findings.isEmpty)
        #expect(snapshot.totals.posts == 2_000)
        #expect(listeners.allSatisfy { $0.received == 1_000 })
    }

    // MARK: - Lifetime of a finding

    @Test func keepsTheTimeAFindingWasFirstSeenAndListsTheNewestFirst() throws {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office) { $0.oversubscriptionThreshold = 2 }
        for _ in 0..<3 { office.register { (_: Ping) in } }
        clock.advance(seconds: 1)
        #expect(monitor.snapshot().findings.map(\.firstSeen) == [1_000_000_000])
        clock.advance(seconds: 1)
        for _ in 0..<3 { office.register { (_: Pong) in } }
        let findings = monitor.snapshot().findings
        #expect(findings.map(\.mailType) == [TypeIdentity(Pong.self), ping])
        #expect(findings.map(\.firstSeen) == [2_000_000_000, 1_000_000_000])
        #expect(Set(findings.map(\.id)).count == 2)
    }
}
