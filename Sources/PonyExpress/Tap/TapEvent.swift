/// One thing that happened in a ``PostOffice``.
public enum TapEvent: Sendable {
    /// A recipient was registered.
    case registered(RecipientInfo)
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
    case pruned(Prune)
}
