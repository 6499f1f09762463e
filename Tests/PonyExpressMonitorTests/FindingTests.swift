import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private struct Pong: Mail {}

private let ping = TypeIdentity(Ping.self)

/// Each finding is triggered by a small deliberate scenario, and the same scenario done right triggers nothing.
@Suite(.tags(.concurrency)) struct FindingTests {
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

    @Test func countsOnlyLivingRecipientsTowardTheThreshold() {
        let (office, monitor, _) = watchedOffice { $0.oversubscriptionThreshold = 10 }
        let living = (0..<10).map { _ in TestRecipient() }
        for recipient in living { office.register(Ping.self, recipient, TestRecipient.receive) }
        for _ in 0..<5 { office.register(Ping.self, TestRecipient(), TestRecipient.receive) }
        #expect(monitor.snapshot().findings.isEmpty, "5 of 15 were released and wait to be pruned")
        #expect(living.count == 10)
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
        #expect(finding.subject == "TestRecipient")
        #expect(finding.evidence(named: .registrations) == 2)
        #expect(finding.explanation.hasPrefix("one TestRecipient is registered 2 times for Ping at "))
        #expect(finding.explanation.hasSuffix("(\(first), \(second))"))
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

    @Test func threeObjectsThatEachRegisterAgainAreOneFindingNotALeak() throws {
        let (office, monitor, clock) = watchedOffice()
        let screens = (0..<3).map { _ in TestRecipient() }
        for _ in 0..<12 {
            for screen in screens { office.register(Ping.self, screen, TestRecipient.receive) }
            office.post(Ping())
            clock.advance(seconds: 1)
        }
        let snapshot = monitor.snapshot()
        #expect(snapshot.findings.map(\.kind) == [.duplicateRegistration])
        let finding = try #require(snapshot.findings.first)
        #expect(finding.evidence(named: .objects) == 3)
        #expect(finding.evidence(named: .registrations) == 36)
        #expect(finding.evidence(named: .mostForOneObject) == 12)
    }

    // MARK: - Leaks

    @Test func reportsRegistrationsThatKeepGrowingAndStayAlive() throws {
        let (office, monitor, clock) = watchedOffice()
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
        #expect(finding.subject == "TestRecipient")
        #expect(finding.site?.fileID == "PonyExpressMonitorTests/FindingTests.swift")
        #expect(finding.evidence(named: .live) == 60)
        #expect(finding.evidence(named: .growth) == 20, "the shortest window, 4 s, already shows it")
        #expect(finding.evidence(named: .windowSeconds) == 4)
        #expect(finding.evidence(named: .growthPerSecond) == 5)
        #expect(finding.evidence(named: .oldestAge) == 12e9)
        #expect(finding.evidence(named: .endedRegistrations) == 0)
        #expect(finding.explanation.contains("TestRecipient objects registered for Ping at "))
        #expect(finding.explanation.contains("60 alive, +20 in 4 s (5.0/s), the oldest 12.0s old"))
        #expect(kept.count == 60)
    }

    @Test func reportsBlocksThatAreNeverUnregistered() throws {
        let (office, monitor, clock) = watchedOffice()
        for _ in 0..<12 {
            for _ in 0..<5 { office.register { (_: Ping) in } }
            office.post(Ping())
            clock.advance(seconds: 1)
        }

        let snapshot = monitor.snapshot()
        #expect(snapshot.findings.count == 1, "one finding per site")
        let finding = try #require(snapshot.findings(of: .growingRegistrations).first)
        #expect(finding.subject == "block")
        #expect(finding.evidence(named: .live) == 60)
        #expect(finding.explanation.hasPrefix("blocks registered for Ping at "))
        #expect(finding.explanation.hasSuffix("none of this site's registrations has ended"))
    }

    @Test func reportsASlowLeakWithinAMinuteButNotFromTooFewRegistrations() throws {
        let (office, monitor, clock) = watchedOffice()
        var kept: [TestRecipient] = []
        var firstSeen: Double?
        for second in 0..<70 {
            if second % 5 == 0 {
                let recipient = TestRecipient()
                kept.append(recipient)
                office.register(Ping.self, recipient, TestRecipient.receive)
            }
            office.post(Ping())
            clock.advance(seconds: 1)
            if firstSeen == nil, !monitor.snapshot().findings(of: .growingRegistrations).isEmpty {
                firstSeen = Double(second + 1)
            }
        }
        let seen = try #require(firstSeen, "one leak every 5 s is found within 70 s")
        #expect(seen <= 60)
        #expect(seen >= 40, "8 registrations take 40 s at this rate")
        #expect(monitor.snapshot().findings.map(\.kind) == [.growingRegistrations])
    }

    @Test func reportsALeakAmidChurnAtTheSameSiteWithTheLifetimesOfTheOthers() throws {
        let (office, monitor, clock) = watchedOffice()
        var churning: [RecipientId] = []
        var shown: [TestRecipient] = []
        var kept: [TestRecipient] = []
        func register(_ recipient: TestRecipient) -> RecipientId {
            office.register(Ping.self, recipient, TestRecipient.receive)
        }
        for second in 0..<20 {
            // Ten screens come and go every second; one of them, every second, is kept alive by mistake.
            for id in churning { office.unregister(id) }
            let screens = (0..<10).map { _ in TestRecipient() }
            shown = Array(screens.dropFirst())
            churning = shown.map(register)
            kept.append(screens[0])
            _ = register(screens[0])
            office.post(Ping())
            clock.advance(seconds: 1)
            if second == 4 { #expect(monitor.snapshot().findings.isEmpty, "4 kept beside the first 9 in 5 s") }
        }
        let finding = try #require(monitor.snapshot().findings(of: .growingRegistrations).first)
        #expect(finding.evidence(named: .live) == 29)
        #expect(finding.evidence(named: .growth) == 10)
        #expect(finding.evidence(named: .windowSeconds) == 10)
        #expect(finding.evidence(named: .endedRegistrations) == 171)
        let p90 = try #require(finding.evidence(named: .p90Lifetime))
        #expect(p90 >= 1e9 && p90 <= 1.2e9)
        #expect(finding.evidence(named: .olderThanP90Lifetime) == 19, "every kept one but the newest")
        #expect(finding.explanation.contains("171 ended registrations lived 1.02s (median)"))
        #expect(shown.count == 9)
    }

    @Test func ignoresChurnBurstsAndLargePopulationsThatTurnOver() {
        let (office, monitor, clock) = watchedOffice()
        var population: [(id: RecipientId, recipient: TestRecipient)] = []
        var startUp: [TestRecipient] = []
        func member() -> (id: RecipientId, recipient: TestRecipient) {
            let recipient = TestRecipient()
            return (office.register(Ping.self, recipient, TestRecipient.receive), recipient)
        }
        for second in 0..<180 {
            if second == 0 {
                // A burst at start-up that stays for good.
                startUp = (0..<300).map { _ in TestRecipient() }
                for recipient in startUp { office.register(Pong.self, recipient, TestRecipient.receive) }
            }
            // A population of 500 in which one member in 60 is replaced each second.
            if population.isEmpty { population = (0..<500).map { _ in member() } }
            for index in stride(from: second % 60, to: 500, by: 60) {
                office.unregister(population[index].id)
                population[index] = member()
            }
            // Weak recipients released without unregistering, pruned only by the rare post.
            for _ in 0..<20 { office.register(Ping.self, TestRecipient(), TestRecipient.receive) }
            if second % 30 == 0 { office.post(Ping()) }
            clock.advance(seconds: 1)
            #expect(monitor.snapshot().findings(of: .growingRegistrations).isEmpty, "second \(second)")
        }
        #expect(startUp.count == 300)
    }

    @Test func aLeakWhileNothingIsPostedIsStillALeakButReleasedRecipientsAreNot() throws {
        let (office, monitor, clock) = watchedOffice()
        var kept: [TestRecipient] = []
        for _ in 0..<12 {
            for _ in 0..<5 {
                let recipient = TestRecipient()
                kept.append(recipient)
                office.register(Ping.self, recipient, TestRecipient.receive)
                // Released at once: its registration waits for a post to prune it.
                office.register(Pong.self, TestRecipient(), TestRecipient.receive)
            }
            clock.advance(seconds: 1)
        }
        let findings = monitor.snapshot().findings
        #expect(findings.map(\.kind) == [.growingRegistrations])
        #expect(findings.map(\.mailType) == [ping])
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
        #expect(finding.category == .churn, "dying without unregistering is correct use, not a leak")
        #expect(finding.evidence(named: .prunesPerSecond) == 10)
        #expect(finding.evidence(named: .prunesInWindow) == 100)
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
        // Judged by registration site; the site's one recipient is named.
        #expect(finding.subject == nil)
        #expect(finding.explanation.contains("a block (\(slow))"), "\(finding.explanation)")
        #expect((finding.evidence(named: .shareOfHandlerTime) ?? 0) >= 0.8)
        #expect((finding.evidence(named: .meanHandlerTime) ?? 0) >= 1_000_000)
        #expect(finding.evidence(named: .deliveries) == 20)
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

    /// Issue 39: a handler whose time goes to a post it makes is not the slow one; the recipient that does the work
    /// is. Before self times, the poster took 99% of Ping's handler time at 1 ms a delivery, and was reported.
    @Test func aNestedPostsTimeIsChargedToTheRecipientsThatRanIt() throws {
        let office = PostOffice()
        let (_, monitor, _) = watching(office) { $0.slowRecipientMinimumMean = 200_000 }
        let poster = office.register { [weak office] (_: Ping) in office?.post(Pong()) }
        office.register { (_: Ping) in }
        let slow = office.register { (_: Pong) in spin(nanoseconds: 1_000_000) }
        office.register { (_: Pong) in }
        for _ in 0..<20 { office.post(Ping()) }

        let snapshot = monitor.snapshot()
        let findings = snapshot.findings(of: .slowRecipient)
        #expect(findings.count == 1, "\(findings.map(\.explanation))")
        #expect(findings.first?.explanation.contains("(\(slow))") == true, "\(findings.map(\.explanation))")
        #expect(findings.first?.mailType == TypeIdentity(Pong.self))
        let posterRow = try #require(snapshot.recipients(of: ping).first { $0.info.id == poster })
        let slowRow = try #require(snapshot.recipients(of: TypeIdentity(Pong.self)).first { $0.info.id == slow })
        // The poster's own work is a post's routing; the 1 ms of each delivery is the slow recipient's.
        #expect(posterRow.handlerTime < slowRow.handlerTime / 4, "\(posterRow.handlerTime) vs \(slowRow.handlerTime)")
    }

    /// Each second, mail waits on a suspended queue for `waits[second]` before the queue runs it; `each` sees the
    /// snapshot at the end of every second. The stalled-queue rule's bound is out of the way, so that only the trend
    /// is judged.
    private func queueScenario(
        waits: [UInt64], each: (_ second: Int, MonitorSnapshot) -> Void = { _, _ in }
    ) -> MonitorSnapshot {
        let office = PostOffice()
        let (_, monitor, clock) = watching(office) { $0.stalledQueueWait = 10 }
        let queue = DispatchQueue(label: "monitor.tests.backlog")
        office.register(queue: queue) { (_: Ping) in }
        var expected: UInt64 = 0
        for (second, wait) in waits.enumerated() {
            queue.suspend()
            for _ in 0..<3 { office.post(Ping()) }
            expected += 3
            spin(nanoseconds: wait)
            queue.resume()
            #expect(waitUntil { monitor.snapshot().totals.deliveries == expected })
            clock.advance(seconds: 1)
            each(second, monitor.snapshot())
        }
        return monitor.snapshot()
    }

    /// Waits rise by 30 ms a second, wider than the scheduling delay a loaded machine adds to a real queue's wait
    /// (steps of 10 ms failed under load: a late second's noise outweighed the rise).
    @Test func reportsAQueueWhoseWaitKeepsRising() throws {
        let snapshot = queueScenario(waits: (0..<12).map { UInt64($0) * 30_000_000 })
        let finding = try #require(
            snapshot.findings(of: .risingQueueWait).first, "mean waits: \(snapshot.queues.first?.waitHistory ?? [])")
        #expect(snapshot.findings.map(\.kind) == [.risingQueueWait])
        #expect(finding.subject == "monitor.tests.backlog")
        #expect(finding.mailType == ping)
        // The window is the last 10 s: waits of 60 to 330 ms, so medians of 90 ms early and 300 ms late.
        #expect((finding.evidence(named: .lateMeanWait) ?? 0) >= 270_000_000)
        #expect((finding.evidence(named: .earlyMeanWait) ?? .infinity) < 180_000_000)
        // It names whose handler time fills the queue: the block registered in queueScenario.
        #expect(finding.site?.fileID == "PonyExpressMonitorTests/FindingTests.swift")
        #expect(
            finding.explanation.contains("handler time: block for Ping at PonyExpressMonitorTests/FindingTests.swift"))
        #expect(finding.evidence(named: .topLoadShare) == 1)
    }

    /// A wait that grows by the same 10 ms every second grows by a smaller factor every second: from 4.5x over the
    /// window after 10 s to 1.2x after 40 s. It is still getting worse, so it stays reported (issue 39 saw it go "no
    /// longer holding" after about 30 s while the lag still climbed). Steps of 5 ms missed one second in a loaded
    /// run: a second's scheduling noise took the 35 ms rise under the 25 ms bound.
    @Test(.blocksItsThread) func aWaitThatKeepsRisingStaysReportedAfterItsFactorFalls() {
        var reported: [Int] = []
        let waits = (0..<40).map { UInt64($0) * 10_000_000 }
        let last = queueScenario(waits: waits) { second, snapshot in
            if !snapshot.findings(of: .risingQueueWait).isEmpty { reported.append(second) }
        }
        let finding = last.findings(of: .risingQueueWait).first
        // The late wait passes the 50 ms minimum at about second 7; from then on, every second.
        let first = reported.first ?? 40
        #expect(first <= 15, "reported in seconds \(reported)")
        #expect(reported == Array(first..<40), "reported in seconds \(reported)")
        let early = finding?.evidence(named: .earlyMeanWait) ?? 0
        let late = finding?.evidence(named: .lateMeanWait) ?? 0
        #expect(late < 1.5 * early, "the factor alone would not report it: \(early) -> \(late)")
    }

    @Test func ignoresAQueueWithASteadyWait() {
        let snapshot = queueScenario(waits: Array(repeating: 30_000_000, count: 12))
        #expect(snapshot.findings.isEmpty)
        #expect(snapshot.queues.first?.waitHistory.count == 12)
    }

    // MARK: - Healthy load

    @Test(
        .skipped(
            under: .address, .thread,
            because: """
                a sanitizer's slowdown makes a steady load look slow; the monitor times one post in 32, so one \
                preempted run weighs in an estimate (a TSan run saw an empty block at 105µs a delivery)
                """))
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
