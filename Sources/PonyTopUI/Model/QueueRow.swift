import PonyExpressMonitor

/// One dispatch queue that delivered mail: how much waits on it and for how long.
package struct QueueRow: Equatable, Sendable, Keyed {
    /// The queue's label.
    package var label: String
    /// Handler runs on it.
    package var deliveries: UInt64
    /// Handler runs per second over the short window.
    package var deliveriesPerSecond: Double
    /// Mail posted but not yet handled, estimated; `nil` when unknown.
    package var backlog: Double?
    /// Waits from post to handler start.
    package var wait: LatencySummary
    /// The mail types delivered on it.
    package var mailTypes: [String]
    /// Live recipients delivered on it.
    package var recipients: Int

    /// Creates a row.
    package init(
        label: String, deliveries: UInt64, deliveriesPerSecond: Double = 0, backlog: Double? = nil,
        wait: LatencySummary, mailTypes: [String] = [], recipients: Int = 0
    ) {
        self.label = label
        self.deliveries = deliveries
        self.deliveriesPerSecond = deliveriesPerSecond
        self.backlog = backlog
        self.wait = wait
        self.mailTypes = mailTypes
        self.recipients = recipients
    }

    /// The row's key in selections.
    package var key: String { label }
}
