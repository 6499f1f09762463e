import PonyExpressMonitor

/// The order each table shows its records in before the user sorts it, for the report (`PonyTopReport`), which
/// lists what the screen lists in the same order: the panes' ordering, shared, not their state.
package enum DefaultOrder {
    /// Mail types as the mail types pane orders them.
    package static func mailTypes(_ rows: [MailTypeStats]) -> [MailTypeStats] { MailTypesPane.inDefaultOrder(rows) }

    /// Sites as the recipients pane orders them.
    package static func sites(_ rows: [SiteRow]) -> [SiteRow] { RecipientsPane.inDefaultOrder(rows) }

    /// Queues as the queues pane orders them.
    package static func queues(_ rows: [QueueStats]) -> [QueueStats] { QueuesPane.inDefaultOrder(rows) }

    /// Prune groups as the prunes pane orders them.
    package static func pruneGroups(_ rows: [PruneGroupRow]) -> [PruneGroupRow] { PrunesPane.inDefaultOrder(rows) }
}
