import PonyExpress

/// Turns what a snapshot gathered into findings, by the thresholds of ``MonitorSettings``. Pure: no clock, no locks.
struct FindingDetector {
    let settings: MonitorSettings

    /// The live recipients of one registered mail type.
    struct TypeRecipients {
        let mailType: TypeIdentity
        let live: Int
        /// The site with the most live recipients of the type, and how many it has.
        let topSite: SourceLocation?
        let topSiteLive: Int
    }

    /// Live registrations of one object for one mail type, confirmed alive together.
    struct Duplicate {
        let mailType: TypeIdentity
        let recipientType: TypeIdentity?
        let site: SourceLocation
        let ids: [RecipientId]
    }

    /// One site over the leak window: live registrations and live blocks at the end of the second before the window
    /// and of each second in it (window + 1 values), and its prunes over the long window.
    struct SiteWindow {
        let site: SourceLocation
        let mailType: TypeIdentity
        let live: [Int]
        let blocks: [Int]
        let blocksUnregistered: UInt64
        let prunesInLongWindow: UInt64
    }

    /// One queue's mean wait in each second of the leak window, `nil` for seconds without deliveries.
    struct QueueWindow {
        let label: String
        let mailType: TypeIdentity
        let meanWaits: [Double?]
    }

    struct Input {
        /// Completed seconds since attach or reset.
        var completedSeconds: Int64 = 0
        var postsInLeakWindow: UInt64 = 0
        var types: [TypeRecipients] = []
        var duplicates: [Duplicate] = []
        var sites: [SiteWindow] = []
        /// Live recipients grouped by registered mail type.
        var loads: [ArraySlice<RecipientStats>] = []
        var queues: [QueueWindow] = []
    }

    /// The findings the input shows, with `firstSeen` 0.
    func findings(in input: Input) -> [Finding] {
        var found: [Finding] = []
        oversubscription(input, into: &found)
        leaks(input, into: &found)
        slowRecipients(input, into: &found)
        risingQueueWaits(input, into: &found)
        return found
    }

    // MARK: - Over-subscription

    private func oversubscription(_ input: Input, into found: inout [Finding]) {
        let threshold = settings.oversubscriptionThreshold
        for type in input.types where type.live > threshold {
            var evidence = [
                Evidence(name: "live recipients", value: Double(type.live)),
                Evidence(name: "threshold", value: Double(threshold)),
            ]
            if type.topSite != nil {
                evidence.append(Evidence(name: "live from top site", value: Double(type.topSiteLive)))
            }
            found.append(
                Finding(
                    kind: .oversubscribed, mailType: type.mailType, site: type.topSite,
                    explanation:
                        "\(type.mailType.name) has \(type.live) live recipients, more than the threshold of \(threshold)",
                    evidence: evidence, firstSeen: 0))
        }
        for duplicate in input.duplicates {
            let ids = duplicate.ids.map(\.description).joined(separator: ", ")
            let owner = duplicate.recipientType?.name ?? "object"
            found.append(
                Finding(
                    kind: .duplicateRegistration, mailType: duplicate.mailType, site: duplicate.site,
                    subject: ids,
                    explanation:
                        "one \(owner) is registered \(duplicate.ids.count) times for \(duplicate.mailType.name) (\(ids))",
                    evidence: [Evidence(name: "registrations", value: Double(duplicate.ids.count))], firstSeen: 0))
        }
    }

    // MARK: - Leaks

    private func leaks(_ input: Input, into found: inout [Finding]) {
        let window = settings.leakSeconds
        let judged = input.completedSeconds >= Int64(window)
        let longWindow = Double(settings.longSeconds)
        for site in input.sites {
            var blocksAccumulate = false
            if judged, site.blocksUnregistered == 0, let first = site.blocks.first, let last = site.blocks.last {
                let growth = last - first
                let rises = risingSteps(site.blocks)
                if growth >= settings.leakMinimumGrowth, rises >= settings.blockGrowthSeconds {
                    blocksAccumulate = true
                    found.append(
                        Finding(
                            kind: .accumulatingBlocks, mailType: site.mailType, site: site.site,
                            explanation:
                                "blocks registered at \(site.site) grew by \(growth) in \(window) s and none was ever unregistered",
                            evidence: [
                                Evidence(name: "live blocks", value: Double(last)),
                                Evidence(name: "growth", value: Double(growth)),
                                Evidence(name: "seconds with growth", value: Double(rises)),
                                Evidence(name: "window seconds", value: Double(window)),
                            ], firstSeen: 0))
                }
            }
            if judged, !blocksAccumulate, input.postsInLeakWindow > 0, let first = site.live.first,
                let last = site.live.last
            {
                let growth = last - first
                let rises = risingSteps(site.live)
                if growth >= settings.leakMinimumGrowth, Double(rises) >= settings.leakGrowingShare * Double(window) {
                    found.append(
                        Finding(
                            kind: .growingRegistrations, mailType: site.mailType, site: site.site,
                            explanation:
                                "live registrations from \(site.site) grew by \(growth) in \(window) s while mail was posted",
                            evidence: [
                                Evidence(name: "live", value: Double(last)),
                                Evidence(name: "growth", value: Double(growth)),
                                Evidence(name: "seconds with growth", value: Double(rises)),
                                Evidence(name: "window seconds", value: Double(window)),
                                Evidence(name: "posts in window", value: Double(input.postsInLeakWindow)),
                            ], firstSeen: 0))
                }
            }
            let rate = Double(site.prunesInLongWindow) / longWindow
            if rate >= settings.pruneRateThreshold {
                found.append(
                    Finding(
                        kind: .highPruneRate, mailType: site.mailType, site: site.site,
                        explanation:
                            "\(Units.compact(rate)) registrations/s from \(site.site) are pruned: their objects die without unregistering",
                        evidence: [
                            Evidence(name: "prunes per second", value: rate),
                            Evidence(name: "prunes in window", value: Double(site.prunesInLongWindow)),
                            Evidence(name: "threshold", value: settings.pruneRateThreshold),
                        ], firstSeen: 0))
            }
        }
    }

    /// How many steps of `series` go up.
    private func risingSteps(_ series: [Int]) -> Int {
        zip(series, series.dropFirst()).count { $1 > $0 }
    }

    // MARK: - Slow

    private func slowRecipients(_ input: Input, into found: inout [Finding]) {
        for loads in input.loads {
            var active = 0
            var total = 0.0
            for load in loads where load.deliveries > 1 {
                active += 1
                total += typicalTime(load)
            }
            guard active >= 2, total > 0 else { continue }
            for load in loads where load.deliveries > 1 {
                let share = typicalTime(load) / total
                let mean = typicalTime(load) / Double(load.deliveries - 1)
                guard share >= settings.slowRecipientShare,
                    load.deliveries >= UInt64(settings.slowRecipientMinimumDeliveries),
                    mean >= Double(settings.slowRecipientMinimumMean)
                else { continue }
                let who = load.info.kind.objectType.map { "a \($0.name)" } ?? "a block"
                found.append(
                    Finding(
                        kind: .slowRecipient, mailType: load.info.mailType, site: load.info.site,
                        subject: load.info.id.description,
                        explanation:
                            "\(who) (\(load.info.id)) takes \(Int((share * 100).rounded()))% of \(load.info.mailType.name) handler time, \(Units.duration(UInt64(mean.rounded()))) a delivery",
                        evidence: [
                            Evidence(name: "share of handler time", value: share),
                            Evidence(name: "mean handler ns", value: mean),
                            Evidence(name: "deliveries", value: Double(load.deliveries)),
                            Evidence(name: "recipients with deliveries", value: Double(active)),
                        ], firstSeen: 0))
            }
        }
    }

    /// A recipient's handler time without its single longest run: one run the system preempted proves nothing.
    private func typicalTime(_ recipient: RecipientStats) -> Double {
        Double(recipient.handlerTime - Swift.min(recipient.handlerTime, recipient.maxHandlerTime))
    }

    private func risingQueueWaits(_ input: Input, into found: inout [Finding]) {
        let window = settings.leakSeconds
        guard input.completedSeconds >= Int64(window) else { return }
        for queue in input.queues {
            let means = queue.meanWaits.compactMap { $0 }
            guard means.count >= Swift.max(3, window / 2) else { continue }
            // Medians of the first and last three seconds, so that one slow second at either end decides nothing.
            let early = median(means.prefix(3))
            let late = median(means.suffix(3))
            // The share of pairs of seconds in which the later one waited longer: one slow second moves it little.
            var later = 0
            for (index, mean) in means.enumerated() { later += means[(index + 1)...].count { $0 > mean } }
            let pairs = means.count * (means.count - 1) / 2
            let share = Double(later) / Double(pairs)
            guard share >= settings.risingWaitShare, late >= settings.risingWaitFactor * early,
                late >= Double(settings.risingWaitMinimum)
            else { continue }
            found.append(
                Finding(
                    kind: .risingQueueWait, mailType: queue.mailType, site: nil, subject: queue.label,
                    explanation:
                        "the wait on queue \(queue.label) rose from \(Units.duration(UInt64(early.rounded()))) to \(Units.duration(UInt64(late.rounded()))) in \(window) s",
                    evidence: [
                        Evidence(name: "early mean wait ns", value: early),
                        Evidence(name: "late mean wait ns", value: late),
                        Evidence(name: "share of rising pairs", value: share),
                        Evidence(name: "seconds with deliveries", value: Double(means.count)),
                    ], firstSeen: 0))
        }
    }
}

/// The median of a few values.
private func median(_ values: some Collection<Double>) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}
