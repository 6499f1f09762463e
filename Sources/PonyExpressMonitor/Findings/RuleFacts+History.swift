import PonyExpress

extension RuleFacts {
    /// The facts as the app would have gathered them `secondsAgo` whole seconds earlier, as far as they carry their
    /// history: each queue's seconds, each grown site's live series and registrations, each crowd's live count and
    /// each pruned site's prunes over the long window, cut at that second. The facts that keep no history (handler
    /// times, duplicates, outlived scopes, and crowds and prunes gathered before wire protocol 1.9) are left out, so
    /// their rules raise nothing from them. `nil` past the kept history.
    ///
    /// What a judge reads to date a finding it raises at its first judgment (``FindingJudge/judge(_:datingFrom:)``)
    /// from the app's history rather than from the moment it attached.
    func asOf(secondsAgo: Int) -> RuleFacts? {
        guard secondsAgo > 0, secondsAgo < keptSeconds, Int64(secondsAgo) <= second else { return nil }
        var past = self
        past.time = time &- Nanoseconds(secondsAgo) &* 1_000_000_000
        past.second = second &- Int64(secondsAgo)
        past.crowds = crowds.compactMap { crowd in
            // Its live count then: now's, less what its sites gained since.
            guard let series = crowd.liveSeries, secondsAgo < series.count, let last = series.last else { return nil }
            var cut = crowd
            cut.living = Swift.max(0, crowd.living &- (last &- series[series.count - 1 - secondsAgo]))
            cut.liveSeries = Array(series.dropLast(secondsAgo))
            return cut
        }
        past.prunes = prunes.compactMap { site in
            guard let perSecond = site.perSecond, secondsAgo < perSecond.count else { return nil }
            var cut = site
            let end = perSecond.count - secondsAgo
            let window = Swift.max(1, Swift.min(pruneWindow, end))
            cut.prunes = perSecond[(end - window)..<end].reduce(0, &+)
            cut.perSecond = Array(perSecond.prefix(end))
            return cut
        }
        past.postedTypes = []
        past.standing = []
        past.queues = queues.map { queue in
            var cut = queue
            cut.deliveries = queue.deliveries.dropLast(secondsAgo)
            cut.waits = queue.waits.dropLast(secondsAgo)
            cut.overBound = queue.overBound.dropLast(secondsAgo)
            cut.maxWaits = queue.maxWaits.dropLast(secondsAgo)
            return cut
        }
        past.leaks = leaks.map { leaks in
            var cut = leaks
            cut.sites = leaks.sites.compactMap { $0.asOf(secondsAgo: secondsAgo, second: past.second) }
            cut.changes = []
            return cut
        }
        return past
    }
}

extension GrowingRegistrationsRule.GrowingSite {
    /// The site as it stood at the end of `second`, `secondsAgo` seconds before the facts' own: its live count then,
    /// and its alive registrations made by then (those that ended since are not counted, so the rule raises a leak
    /// from this no earlier than the app's own judge would have). `nil` when its series does not reach back so far.
    fileprivate func asOf(secondsAgo: Int, second: Int64) -> Self? {
        guard secondsAgo < liveSeries.count, second >= firstSecond else { return nil }
        var cut = self
        cut.live = liveSeries[liveSeries.count - secondsAgo]
        cut.liveSeries = Array(liveSeries.dropLast(secondsAgo))
        let kept = registeredSeconds.indices.filter { registeredSeconds[$0] <= second }
        cut.registeredSeconds = kept.map { registeredSeconds[$0] }
        cut.registeredCounts = kept.map { registeredCounts[$0] }
        return cut
    }
}
