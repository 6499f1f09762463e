import PonyExpress

extension Finding.Kind {
    /// The recipients of one registration site take most of the handler time of a posted mail type.
    public static let slowRecipient: Self = "slowRecipient"
}

extension Evidence.Name {
    /// The reported site's share of the handler time of the posted type.
    public static let shareOfHandlerTime: Self = "share of handler time"
    /// The reported site's mean handler time, in nanoseconds, without its longest runs
    /// (`slowRecipient.longestLeftOut`).
    public static let meanHandlerTime: Self = "mean handler time"
    /// How many receivers of the posted type had deliveries.
    public static let recipientsWithDeliveries: Self = "recipients with deliveries"
    /// How many of them are registered at the reported site.
    public static let recipientsAtSite: Self = "recipients at the site"
}

/// Reports the registration site whose handlers take most of the handler time of a posted mail type, counting the
/// recipients registered for its superclasses with what they received of it.
///
/// A site, one line of code, is judged with every live recipient registered there: the same handler code, so its
/// runs are one sample. Judged alone, each instance of a site that registers and unregisters often (40 view models
/// living 0.4 s each) has a handful of timed runs, and two of them preempted on a busy machine made one empty
/// handler "89% of the type's handler time, 477 µs a delivery" (CI's `swift test` at stop 50); among its site's
/// hundreds of runs those two weigh nothing. A site whose handler really is slow is slow in every instance.
struct SlowRecipientRule: FindingRule {
    static let kind = Finding.Kind.slowRecipient
    static let category = Finding.Category.slow
    static let summary =
        "The recipients of one registration site take most of the handler time of a mail type they receive (its own "
        + "or a subclass)."
    static let share = RuleParameter(
        kind, "share", "share of the posted type's handler time from which a site's recipients are reported",
        unit: .share, default: 0.8, range: 0.01...1)
    static let minimumMean = RuleParameter(
        kind, "minimumMean",
        "a site's mean handler time without its longest runs, in seconds, below which it is not reported",
        unit: .seconds, default: 0.0001, range: 0...100)
    static let minimumDeliveries = RuleParameter(
        kind, "minimumDeliveries", "deliveries a site's recipients need before they can be reported", unit: .count,
        default: 10, range: 1...1e12, isWhole: true)
    static let longestLeftOut = RuleParameter(
        kind, "longestLeftOut",
        "the share of a site's longest timed runs left out of its mean: where the runs the system preempted land",
        unit: .share, default: 0.1, range: 0...0.5)
    static let parameters = [share, minimumMean, minimumDeliveries, longestLeftOut]
    /// Timed handler runs a site's recipients need before they can be reported. The monitor times one post in
    /// ``MonitorSettings/handlerTimingInterval``, and a site's longest runs are left out, so that a mean from one
    /// or two runs the system preempted is never reported. A slow handler's next post is always timed: a recipient
    /// that really is slow reaches this soon.
    static let minimumTimedRuns: UInt64 = 5

    let share: Double
    let minimumMean: Double
    let minimumDeliveries: UInt64
    let longestLeftOut: Double

    init(settings: MonitorSettings) {
        share = settings[Self.share]
        minimumMean = settings[Self.minimumMean] * 1e9
        minimumDeliveries = UInt64(settings[Self.minimumDeliveries])
        longestLeftOut = settings[Self.longestLeftOut]
    }

    /// A posted type whose handler time two sites or more share, with what each site's receivers took.
    struct PostedType: Sendable, Codable, Equatable {
        var mailType: TypeIdentity
        /// Its receivers with more than one delivery.
        var receivers: Int
        /// Its sites, in the order their first receiver registered.
        var sites: [PostedSite]
    }

    /// The receivers of a posted type registered at one site, added up.
    struct PostedSite: Sendable, Codable, Equatable {
        var site: SourceLocation
        var receivers = 0
        var deliveries: UInt64 = 0
        var handlerTime: Nanoseconds = 0
        var longestRun: Nanoseconds = 0
        var timedRuns: UInt64 = 0
        /// The site's timed runs, from every recipient it ever had, merged over the registry rows of its receivers.
        var runs = RunProfile()
        /// The receiver with the most handler time, which names the site's finding.
        var busiest: RecipientInfo?
        var busiestTime: Nanoseconds = 0
        /// Whether any receiver is registered for a superclass of the posted type.
        var isInherited = false

        mutating func add(_ receiver: ReceiverStats) {
            receivers += 1
            deliveries += receiver.deliveries
            handlerTime += receiver.handlerTime
            longestRun = Swift.max(longestRun, receiver.recipient.maxHandlerTime)
            timedRuns += receiver.timedRuns
            isInherited = isInherited || receiver.isInherited
            if busiest == nil || receiver.handlerTime > busiestTime {
                busiest = receiver.recipient.info
                busiestTime = receiver.handlerTime
            }
        }

        /// The site's mean run: with the longest `leftOut` share of its timed runs left out when it has its
        /// ``RunProfile``, where a minority of runs the system preempted (each a scheduler's slice long, milliseconds
        /// against a handler's microseconds) lands; else without its single longest run. `nil` with fewer than two
        /// deliveries.
        func typicalMean(leavingOut leftOut: Double) -> Double? {
            if runs.runs >= SlowRecipientRule.minimumTimedRuns, let mean = runs.trimmedMean(leavingOut: leftOut) {
                return mean
            }
            guard deliveries > 1 else { return nil }
            return Double(handlerTime - Swift.min(handlerTime, longestRun)) / Double(deliveries - 1)
        }
    }

    /// Every posted type whose receivers with more than one delivery are two or more, at two sites or more.
    static func postedTypes(in input: FindingInput) -> [PostedType] {
        input.mailTypes.compactMap { stats -> PostedType? in
            guard stats.deliveries > 0 else { return nil }
            let receivers = input.receivers(of: stats.mailType).filter { $0.deliveries > 1 }
            guard receivers.count >= 2 else { return nil }
            var sites: [SourceLocation: Int] = [:]
            var order: [PostedSite] = []
            var rows: [Set<Int>] = []
            for receiver in receivers {
                let site = receiver.recipient.info.site
                let index = sites[site] ?? order.count
                if index == order.count {
                    sites[site] = index
                    order.append(PostedSite(site: site))
                    rows.append([])
                }
                order[index].add(receiver)
                if let row = receiver.siteRow, rows[index].insert(row).inserted, let profile = input.runs(atSite: row) {
                    order[index].runs.merge(profile)
                }
            }
            // A share means something beside another site: one site alone takes all of its type's time, and under a
            // sanitizer's slowdown 60 empty blocks of one line crossed the minimum (CI's ThreadSanitizer pass at stop 50).
            guard order.count >= 2 else { return nil }
            return PostedType(mailType: stats.mailType, receivers: receivers.count, sites: order)
        }
    }

    func judge(_ facts: RuleFacts) -> [Finding] {
        var found: [Finding] = []
        for posted in facts.postedTypes {
            // Each site's typical time for this type: its typical run times its deliveries of it.
            let means = posted.sites.map { $0.typicalMean(leavingOut: longestLeftOut) }
            let times = zip(posted.sites, means).map { site, mean in mean.map { $0 * Double(site.deliveries) } ?? 0 }
            let total = times.reduce(0, +)
            guard total > 0 else { continue }
            for (index, site) in posted.sites.enumerated() {
                guard let mean = means[index], let busiest = site.busiest else { continue }
                let siteShare = times[index] / total
                guard siteShare >= share, site.deliveries >= minimumDeliveries, mean >= minimumMean,
                    site.timedRuns >= Self.minimumTimedRuns
                else { continue }
                found.append(
                    finding(
                        posted.mailType, site, busiest: busiest, share: siteShare, mean: mean,
                        receivers: posted.receivers))
            }
        }
        return found
    }

    private func finding(
        _ mailType: TypeIdentity, _ site: PostedSite, busiest: RecipientInfo, share siteShare: Double, mean: Double,
        receivers: Int
    ) -> Finding {
        // Named by its busiest recipient when it has one, by its count when several share the time.
        let who = busiest.kind.objectType.map { "a \($0.name)" } ?? "a block"
        let via = site.isInherited ? ", registered for \(busiest.mailType.name)," : ""
        let subject = site.receivers == 1 ? "\(who) (\(busiest.id))\(via)" : "\(site.receivers) recipients\(via)"
        let verb = site.receivers == 1 ? "takes" : "take"
        return Finding(
            kind: Self.kind, mailType: mailType, site: site.site, subject: nil,
            explanation:
                "\(subject) \(verb) \(Int((siteShare * 100).rounded()))% of \(mailType.name) handler time, "
                + "\(Units.duration(Units.nanoseconds(rounding: mean))) a delivery",
            evidence: [
                Evidence(name: .shareOfHandlerTime, value: siteShare, unit: .share),
                Evidence(name: .meanHandlerTime, value: mean, unit: .nanoseconds),
                Evidence(name: .deliveries, value: Double(site.deliveries)),
                Evidence(name: .recipientsWithDeliveries, value: Double(receivers)),
                Evidence(name: .recipientsAtSite, value: Double(site.receivers)),
            ], firstSeen: 0)
    }
}
