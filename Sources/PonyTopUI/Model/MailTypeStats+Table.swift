import PonyExpress
import PonyExpressMonitor

/// The mail types table reads the snapshot's own ``MailTypeStats``: what it shows of a mail type is these few words
/// over the schema's figures, not a copy of them.
extension MailTypeStats: Keyed {
    /// The row's key in selections and frozen orders.
    package var key: String { mailType.qualifiedName }
}

extension MailTypeStats {
    /// The mail type's name.
    package var name: String { mailType.name }
    /// Whether a `NotificationCenter` bridge posts this type: its name is marked in the table.
    package var isBridged: Bool { bridgedPosts > 0 }
    /// Every live recipient that receives this mail: its own and its superclasses'.
    package var receivingRecipients: Int { recipients.total + inheritedRecipients }
}
