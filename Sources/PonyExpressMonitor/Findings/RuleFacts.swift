import PonyExpress

/// What the rules judge, gathered without thresholds: the facts of one snapshot that a consumer judges with its own
/// rules and thresholds, in the app or far from it.
///
/// The monitor gathers them once per snapshot and its judges judge them (``FindingJudge``); a snapshot carries them
/// (``MonitorSnapshot/ruleFacts``), so a recording keeps them and `ponytop --replay --rule-setting` judges it again
/// with other thresholds, the same way every time. Their fields are the rules' own and may change with them: read
/// them through a judge.
///
/// Every rule judges from facts. The leak rule's (`leaks`) also let a judge that reads snapshots in order hold a
/// raised leak while the registrations that raised it live, however old they are; facts recorded before wire protocol
/// 1.8 have none, and a replay of them keeps the leaks as recorded (``FindingJudge/kindsJudged(from:)``).
public struct RuleFacts: Sendable, Codable, Equatable {
    /// When they were gathered, on the monitor's clock.
    var time: Nanoseconds
    /// The second under way since the monitor's origin: seconds `0..<second` are complete.
    var second: Int64
    /// The wait, in seconds, at which the app counted a queued delivery as stalled as it recorded.
    var stallWait: Double
    /// The seconds of history the app keeps: the longest window these facts can judge.
    var keptSeconds: Int
    /// The long window, in whole seconds, over which prunes are counted.
    var pruneWindow: Int
    /// The count of recipients above which a mail type's living ones were counted: the lowest
    /// `oversubscribed.threshold` these facts can be judged with (1 in a recording's).
    var livingCountedAbove: Int
    /// Mail types with more living recipients than ``livingCountedAbove``.
    var crowds: [OversubscribedRule.Crowd] = []
    /// Sites with prunes in the long window.
    var prunes: [HighPruneRateRule.SitePrunes] = []
    /// Every queue that delivered mail, second by second.
    var queues: [QueueSeconds] = []
    /// Posted types whose handler time two sites or more share.
    var postedTypes: [SlowRecipientRule.PostedType] = []
    /// The findings of the rules without parameters (``Finding/Kind/duplicateRegistration``,
    /// ``Finding/Kind/outlivedScope``): facts themselves.
    var standing: [Finding] = []
    /// The leak rule's facts; `nil` in facts gathered before wire protocol 1.8.
    var leaks: GrowingRegistrationsRule.Facts?

    /// One queue's deliveries and waits, second by second over the kept history, oldest first, with what a finding
    /// names.
    struct QueueSeconds: Sendable, Codable, Equatable {
        var label: String
        var deliveries: [UInt64]
        /// The sum of each second's waits, in nanoseconds.
        var waits: [UInt64]
        /// Each second's deliveries that waited longer than ``RuleFacts/stallWait``.
        var overBound: [UInt64]
        /// Each second's longest wait, in nanoseconds.
        var maxWaits: [UInt64]
        /// The mail type with the most deliveries on the queue.
        var busiestMailType: TypeIdentity?
        /// The first three mail types with waits over the bound, and the queue's first mail type.
        var waiting: [TypeIdentity]
        var firstMailType: TypeIdentity?
        /// The site whose recipients take most of the queue's handler time.
        var busiest: QueueLoad?
        var estimatedBacklog: Double

        /// The mean wait of each second, `nil` where there was no delivery.
        var meanWaits: [Double?] { MergedQueue.meanWaits(deliveries: deliveries, waits: waits) }
    }
}

extension RuleFacts {
    /// The least thresholds a snapshot's facts must serve: the monitor gathers only what a judge with these or higher
    /// thresholds reads, since gathering for any threshold asks the post office about every living recipient.
    package struct Floors: Sendable, Codable, Equatable {
        /// Mail types are counted when they have more living recipients than this (``RuleFacts/livingCountedAbove``).
        package var livingCountedAbove: Int
        /// Sites are gathered when they grew by at least this (``GrowingRegistrationsRule/Facts/growthFloor``).
        package var growthFloor: Int

        package init(livingCountedAbove: Int, growthFloor: Int) {
            self.livingCountedAbove = livingCountedAbove
            self.growthFloor = growthFloor
        }

        /// Facts any threshold can judge: a recording's.
        package static let any = Floors(livingCountedAbove: 1, growthFloor: 1)
    }

    /// Gathers what the rules read of `input`, with the leak rule's facts gathered of it.
    init(gathering input: FindingInput, leaks: GrowingRegistrationsRule.Facts) {
        self.leaks = leaks
        time = input.time
        second = input.current
        stallWait = input.settings[StalledQueueRule.wait]
        keptSeconds = input.settings.ringCapacity - 2
        pruneWindow = input.settings.longSeconds
        livingCountedAbove = input.livingCountedAbove
        crowds = OversubscribedRule.crowds(in: input)
        prunes = HighPruneRateRule.prunes(in: input)
        queues = input.queues.compactMap { queue in input.queueSeries[queue.label].map { QueueSeconds(queue, $0) } }
        postedTypes = SlowRecipientRule.postedTypes(in: input)
        standing = DuplicateRegistrationRule.findings(in: input) + OutlivedScopeRule.findings(in: input)
    }
}

extension RuleFacts.QueueSeconds {
    init(_ queue: QueueStats, _ series: MergedQueue) {
        label = queue.label
        deliveries = series.deliveriesSeries
        waits = series.waitSeries
        overBound = series.overBoundSeries
        maxWaits = series.maxWaitSeries
        busiestMailType = series.busiestMailType
        waiting = queue.mailTypes.filter { $0.waitsOverBound > 0 }.prefix(3).map(\.mailType)
        firstMailType = queue.mailTypes.first?.mailType
        busiest = queue.load.first
        estimatedBacklog = queue.estimatedBacklog
    }
}
