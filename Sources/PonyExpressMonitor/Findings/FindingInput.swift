import PonyExpress

/// What the rules look at: the figures of the snapshot being taken, and the series behind them.
struct FindingInput {
    let settings: MonitorSettings
    /// Now, on the monitor's clock.
    let time: Nanoseconds
    /// When second 0 began, on the monitor's clock (attach or reset), as the registry counts registration seconds.
    let origin: Nanoseconds
    /// The second under way; seconds `0..<current` are complete.
    let current: Int64
    /// Every mail type posted or registered, as the snapshot shows it.
    let mailTypes: [MailTypeStats]
    /// The live recipients by registered mail type.
    let recipients: JoinedRecipients
    /// The site rows by row index; row 0 gathers the sites beyond the capacity.
    let sites: [SiteRecord]
    /// The timed runs of each site, by the same row index (shorter than ``sites`` when the last sites timed none).
    let siteRuns: [RunProfile]
    /// The live registrations the monitor knows, in no order.
    let entries: RecipientRegistry.Entries
    /// Every queue that delivered mail, as the snapshot shows it.
    let queues: [QueueStats]
    /// The per-second series of each queue, by label.
    let queueSeries: [String: MergedQueue]
    /// Which registrations are really alive.
    let liveness: Liveness
    /// The scopes that ended, by scope name and site, with the registrations that outlived them.
    let scopes: [ScopeLedger.Key: ScopeLedger.Record]
    /// The count of registered recipients above which a mail type's living ones are counted for the facts: each
    /// costs a question to the post office, so a snapshot counts them only above the lowest `oversubscribed.threshold`
    /// its facts may be judged with.
    let livingCountedAbove: Int
    /// The least growth at which a site's registrations are gathered for the leak rule: the lowest
    /// `growingRegistrations.minimumGrowth` its facts may be judged with.
    let growthFloor: Int
    /// The registration seconds of watched sites that changed lately, and when a change was last lost
    /// (``LeakWatch``).
    let leakChanges: [LeakWatch.Pair]
    let leakChangesLostAt: Int64?

    init(
        settings: MonitorSettings, time: Nanoseconds, origin: Nanoseconds, current: Int64, mailTypes: [MailTypeStats],
        recipients: JoinedRecipients, sites: [SiteRecord], siteRuns: [RunProfile], entries: RecipientRegistry.Entries,
        queues: [QueueStats], queueSeries: [String: MergedQueue], liveness: Liveness,
        scopes: [ScopeLedger.Key: ScopeLedger.Record], livingCountedAbove: Int, growthFloor: Int,
        leakChanges: [LeakWatch.Pair], leakChangesLostAt: Int64?
    ) {
        self.settings = settings
        self.time = time
        self.origin = origin
        self.current = current
        self.mailTypes = mailTypes
        self.recipients = recipients
        self.sites = sites
        self.siteRuns = siteRuns
        self.entries = entries
        self.queues = queues
        self.queueSeries = queueSeries
        self.liveness = liveness
        self.scopes = scopes
        self.livingCountedAbove = livingCountedAbove
        self.growthFloor = growthFloor
        self.leakChanges = leakChanges
        self.leakChangesLostAt = leakChangesLostAt
    }

    /// The second since ``origin`` in which a registration made at `time` was made; negative before it.
    func registrationSecond(_ time: Nanoseconds) -> Int64 {
        LeakWatch.second(of: time, since: origin)
    }

    /// Every live registration that receives mail of `postedType`, with what it received of it.
    func receivers(of postedType: TypeIdentity) -> [ReceiverStats] {
        let superclasses = mailTypes.first { $0.mailType == postedType }?.superclasses ?? []
        return recipients.receivers(of: postedType, superclasses: superclasses)
    }

    /// The timed runs of the site in row `index`, or `nil` for row 0, which gathers many sites.
    func runs(atSite index: Int) -> RunProfile? {
        index > 0 && index < siteRuns.count ? siteRuns[index] : nil
    }
}
