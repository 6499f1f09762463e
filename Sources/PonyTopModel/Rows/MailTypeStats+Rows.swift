import PonyExpress
import PonyExpressMonitor

/// The mail types table and the report read the snapshot's own ``MailTypeStats``: what they show of a mail type is
/// these few words over the schema's figures, not a copy of them.
extension MailTypeStats {
    /// The row's key in selections and frozen orders, and its last word in the default order.
    package var key: String { mailType.qualifiedName }
    /// The mail type's name.
    package var name: String { mailType.name }
    /// Whether a `NotificationCenter` bridge posts this type: its name is marked in the table.
    package var isBridged: Bool { bridgedPosts > 0 }
    /// Every live recipient that receives this mail: its own and its superclasses'.
    package var receivingRecipients: Int { recipients.total + inheritedRecipients }
}
