import Dispatch
import PonyExpress

@testable import PonyExpressMonitor

/// A snapshot in which every field of every type holds a value (no nil optional, no empty collection, every enum
/// case that carries data): what the wire must carry whole. A field added to a snapshot type without a default
/// must be filled in here to compile, and ``SnapshotMirror/unpopulated(_:)`` fails a test until it is.
enum SnapshotFixture {
    /// Verified, so that its registration's info names a required sender.
    struct CartUpdated: VerifiedMail { typealias RequiredSender = Sender }
    struct LoginEvent: Mail {}
    class AppEvent: Mail {}
    final class Screen: Sendable {
        func handle(_ mail: CartUpdated) {}
    }
    final class Sender: Sendable {}

    static let screen = Screen()
    static let sender = Sender()
    static let queue = DispatchQueue(label: "fixture.analytics")

    /// Registrations of every kind, read back from a post office so that their infos are real.
    static func infos() -> [RecipientInfo] {
        let office = PostOffice()
        // In a scope, so that the info carries one (never ended: the fixture only reads it).
        office.openScope("GET /cart").run { office.register(queue: queue, screen, Screen.handle) }
        office.register(sender: sender) { (_: LoginEvent, _: Sender) in }
        // Past a limit, with options: every field of a registration's info holds a value somewhere.
        office.setRecipientLimit(1, for: LoginEvent.self)
        office.register(options: [.once, .replay]) { (_: LoginEvent, _: Sender?) in }
        return office.recipients()
    }

    static func make() -> MonitorSnapshot {
        let latency = LatencySummary(
            count: 3, p50: 1_000, p90: 2_000, p99: 4_000, p999: 8_000, max: 9_000,
            buckets: [LatencyBucket(upperBound: 1_000, count: 1), LatencyBucket(upperBound: 2_000, count: 2)])
        let infos = infos()
        let recipients = Dictionary(grouping: infos, by: \.mailType).mapValues { group in
            group.map {
                RecipientStats(
                    info: $0, deliveries: 7, handlerLatency: latency, isDuplicate: true, handlerTime: 70,
                    maxHandlerTime: 20,
                    deliveriesByPostedType: [
                        PostedTypeDeliveries(mailType: $0.mailType, deliveries: 7, handlerTime: 70)
                    ], replays: 1)
            }
        }
        let cart = TypeIdentity(CartUpdated.self)
        let site = SourceLocation(fileID: "App/Screen.swift", line: 12, filePath: "/src/App/Sources/App/Screen.swift")
        return MonitorSnapshot(
            time: 5_000_000_000, uptime: 4_000_000_000,
            totals: TrafficTotals(
                posts: 10, deliveries: 20, skipped: 1, pruned: 2, recipientsAlive: 3, postsPerSecond: 1.5,
                deliveriesPerSecond: 2.5, prunesPerSecond: 0.25, postsHistory: [1, 2], deliveriesHistory: [2, 4],
                prunesHistory: [0, 1]),
            mailTypes: [
                MailTypeStats(
                    mailType: cart, posts: 10, deliveries: 20, skipped: 1, pruned: 2, postsPerSecond: 1.5,
                    deliveriesPerSecond: 2.5, postsPerSecondLong: 1.25, deliveriesPerSecondLong: 2.25,
                    history: [1, 2, 3],
                    recipients: RecipientCounts(total: 1, objects: 1, blocks: 0, byQueue: ["fixture.analytics": 1]),
                    handlerLatency: latency, queueWait: latency, superclasses: [TypeIdentity(AppEvent.self)],
                    inheritedRecipients: 2, bridgedPosts: 4,
                    relay: RelayFigures(
                        sent: 3, received: 4, dropped: 5, lagSamples: 4, lagP50: 1_000, lagP99: 9_000))
            ],
            handlerLatency: latency, queueWait: latency,
            queues: [
                QueueStats(
                    label: "fixture.analytics", deliveries: 4, meanWait: 1.5e6, maxWait: 3_000_000,
                    waitHistory: [1e6], wait: latency, deliveriesPerSecond: 0.5, estimatedBacklog: 2,
                    recentMaxWait: 2_000_000, recentShareOverBound: 0.25,
                    mailTypes: [
                        QueueMailType(mailType: cart, deliveries: 4, meanWait: 1.5e6, waitsOverBound: 1)
                    ],
                    load: [
                        QueueLoad(
                            site: site, mailType: cart, kind: .object(TypeIdentity(Screen.self)), recipients: 1,
                            deliveries: 4, handlerTime: 400, share: 0.75)
                    ])
            ],
            sites: [
                SiteStats(
                    site: site, mailType: cart, kind: .object(TypeIdentity(Screen.self)), lastRegistration: infos[0],
                    live: 1, liveBlocks: 0, registered: 3, unregistered: 1, pruned: 1, history: [1, 1],
                    growthLast10Seconds: 1, growthLastMinute: 2, oldestAge: 3_000,
                    lifetimes: LifetimeSummary(ended: 2, median: 1_000, p90: 2_000), deliveries: 9,
                    scopes: [ScopeCounts(name: "GET /cart", leakedScopes: 1, cleanScopes: 2, outlived: 1)])
            ],
            recentPrunes: [
                PruneRecord(
                    recipientType: TypeIdentity(Screen.self), mailType: cart, site: site, lifetime: 1_000,
                    reason: .senderReleased, time: 4_000_000_000)
            ],
            findings: [
                Finding(
                    kind: .growingRegistrations, mailType: cart, site: site, subject: "Screen",
                    explanation: "registrations at App/Screen.swift:12 keep growing",
                    evidence: [Evidence(name: "live", value: 40)], firstSeen: 3_000_000_000,
                    // Every field filled: a holding finding has no retraction, but the codec must carry one.
                    retraction: "filled for the codec")
            ],
            retractedFindings: [
                Finding(
                    kind: .growingRegistrations, mailType: cart, site: site, subject: "Screen",
                    explanation: "registrations at App/Screen.swift:12 kept growing",
                    evidence: [Evidence(name: "live", value: 12)], firstSeen: 2_000_000_000,
                    retraction: "the registrations that raised it ended (12 of 12, 0 left)")
            ],
            recipients: recipients, estimatedMemoryBytes: 4_096,
            ruleFacts: ruleFacts(cart: cart, site: site, info: infos[0]))
    }

    /// Rule facts with every field filled.
    static func ruleFacts(cart: TypeIdentity, site: SourceLocation, info: RecipientInfo) -> RuleFacts {
        var runs = RunProfile()
        runs.record(2_000)
        let load = QueueLoad(
            site: site, mailType: cart, kind: .object(TypeIdentity(Screen.self)), recipients: 1, deliveries: 4,
            handlerTime: 400, share: 0.75)
        return RuleFacts(
            time: 5_000_000_000, second: 4, stallWait: 0.25, keptSeconds: 60, pruneWindow: 10, livingCountedAbove: 1,
            crowds: [
                OversubscribedRule.Crowd(
                    mailType: cart, living: 120, topSite: site, livingFromTopSite: 100, liveSeries: [90, 120])
            ],
            prunes: [
                HighPruneRateRule.SitePrunes(
                    mailType: cart, site: site, kind: .object(TypeIdentity(Screen.self)), prunes: 150,
                    perSecond: [50, 100])
            ],
            queues: [
                RuleFacts.QueueSeconds(
                    label: "fixture.analytics", deliveries: [4, 0], waits: [6_000_000, 0], overBound: [1, 0],
                    maxWaits: [3_000_000, 0], busiestMailType: cart, waiting: [cart], firstMailType: cart,
                    busiest: load, estimatedBacklog: 2)
            ],
            postedTypes: [
                SlowRecipientRule.PostedType(
                    mailType: cart, receivers: 2,
                    sites: [
                        SlowRecipientRule.PostedSite(
                            site: site, receivers: 1, deliveries: 7, handlerTime: 70, longestRun: 20, timedRuns: 1,
                            runs: runs, busiest: info, busiestTime: 70, isInherited: true)
                    ])
            ],
            standing: [
                Finding(
                    kind: .duplicateRegistration, mailType: cart, site: site, subject: "Screen",
                    explanation: "one Screen is registered 2 times", evidence: [Evidence(name: "objects", value: 1)],
                    firstSeen: 0, retraction: "filled for the codec")
            ],
            leaks: leakFacts(cart: cart, site: site))
    }

    /// The leak rule's facts with every field filled.
    static func leakFacts(cart: TypeIdentity, site: SourceLocation) -> GrowingRegistrationsRule.Facts {
        let screen = RecipientKind.object(TypeIdentity(Screen.self))
        return GrowingRegistrationsRule.Facts(
            growthFloor: 1,
            sites: [
                GrowingRegistrationsRule.GrowingSite(
                    mailType: cart, site: site, kind: screen, firstSecond: -2, live: 14, liveSeries: [2, 5, 9, 14],
                    registeredSeconds: [1, 2, 3], registeredCounts: [3, 4, 5], registeredBefore: 2,
                    oldestAge: 6_000_000_000, medianAge: 2_000_000_000,
                    lifetimes: LifetimeSummary(ended: 3, median: 1_000_000, p90: 2_000_000), olderThanP90Lifetime: 13)
            ],
            changes: [
                GrowingRegistrationsRule.SiteSeconds(
                    mailType: cart, site: site, kind: screen, seconds: [-40, 1], alive: [0, 3])
            ],
            changesLostAt: 3)
    }
}
