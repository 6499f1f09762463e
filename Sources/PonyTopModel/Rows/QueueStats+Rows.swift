import PonyExpressMonitor

/// The queues table and the report read the snapshot's own ``QueueStats``; these are the words they add over them.
extension QueueStats {
    /// The row's key in selections, and its last word in the default order: the queue's label.
    package var key: String { label }
    /// Mail posted but not yet handled, estimated; `nil` before the queue delivered anything.
    package var backlog: Double? { deliveries == 0 ? nil : estimatedBacklog }
    /// The names of the mail types delivered on it.
    package var mailTypeNames: [String] { mailTypes.map(\.mailType.name) }
    /// Live recipients delivered on it.
    package var recipients: Int { load.reduce(0) { $0 + $1.recipients } }
}
