/// One thing that happened in a ``PostOffice``.
///
/// The events of registrations and prunes, whose ``RecipientInfo`` is large and which are rare, are boxed, so that
/// an event is the size of a ``Delivery``: posts and deliveries, the events of every post, fill and copy half the
/// bytes.
public enum TapEvent: Sendable {
    /// A recipient was registered.
    indirect case registered(RecipientInfo)
    /// A recipient was unregistered by id or by object.
    case unregistered(Unregistration)
    /// Mail was posted; `matched` recipients will be considered for delivery. A ``DeliveryBatchTap`` gets the post
    /// in a ``DeliveryBatch`` instead.
    case posted(Posting)
    /// A handler ran. A ``DeliveryBatchTap`` gets the runs of synchronous handlers in a ``DeliveryBatch`` instead.
    case delivered(Delivery)
    /// A matched recipient did not receive a post.
    case skipped(Skip)
    /// A registration was removed because its recipient or its exact sender was released.
    indirect case pruned(Prune)
    /// A scope's grace period passed after it ended, and the registrations made in it were checked: which
    /// outlived it (see ``MailScope``).
    indirect case scopeEnded(ScopeEnd)
}
