import PonyExpress

extension RuleFacts {
    /// The facts as the app would have gathered them `secondsAgo` whole seconds earlier, as far as they carry their
    /// history: each queue's seconds and each grown site's live series and registrations, cut at that second. The
    /// facts that keep no history (crowds, prunes over the long window, handler times, duplicates, outlived scopes)
    /// are left out, so only the queue and leak rules can raise a finding from them. `nil` past the kept history.
    ///
    /// What a judge reads to date a finding it raises at its first judgment (``FindingJudge/judge(_:datingFrom:)``)
    /// from the app's history rather than from the moment it attached.
    func asOf(secondsAgo: Int) -> RuleFacts? {
        guard secondsAgo > 0, secondsAgo < keptSeconds, Int64(secondsAgo) <= second else { return nil }
        var past = self
        past.time = time &- Nanoseconds(secondsAgo) &* 1_000_000_000
        past.second = second &- Int64(secondsAgo)
        past.crowds = []
        past.prunes = []
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
