import PonyExpress
import Synchronization

/// A tap that keeps exact totals for the delivery accounting identity: every recipient a post matched is, in the
/// end, delivered to, skipped, or pruned because its recipient (or exact sender) was found released.
final class AccountingTap: DeliveryTap {
    let posts = Atomic<UInt64>(0)
    /// The sum of `Posting.matched` over every post.
    let matched = Atomic<UInt64>(0)
    let delivered = Atomic<UInt64>(0)
    let skippedSenderMismatch = Atomic<UInt64>(0)
    let skippedUnregistered = Atomic<UInt64>(0)
    let prunedRecipientReleased = Atomic<UInt64>(0)
    let prunedSenderReleased = Atomic<UInt64>(0)

    func receive(_ event: TapEvent) {
        switch event {
        case .posted(let posting):
            posts.add(1, ordering: .relaxed)
            matched.add(UInt64(posting.matched), ordering: .relaxed)
        case .delivered: delivered.add(1, ordering: .relaxed)
        case .skipped(let skip):
            switch skip.reason {
            case .senderMismatch: skippedSenderMismatch.add(1, ordering: .relaxed)
            case .unregistered: skippedUnregistered.add(1, ordering: .relaxed)
            }
        case .pruned(let prune):
            switch prune.reason {
            case .recipientReleased: prunedRecipientReleased.add(1, ordering: .relaxed)
            case .senderReleased: prunedSenderReleased.add(1, ordering: .relaxed)
            }
        case .registered, .unregistered, .scopeEnded: break
        }
    }

    /// Deliveries, skips and prunes: what the matched recipients of all posts came to so far.
    var accounted: UInt64 {
        delivered.load(ordering: .relaxed) + skippedSenderMismatch.load(ordering: .relaxed)
            + skippedUnregistered.load(ordering: .relaxed) + pruned
    }

    var skipped: UInt64 {
        skippedSenderMismatch.load(ordering: .relaxed) + skippedUnregistered.load(ordering: .relaxed)
    }

    var pruned: UInt64 {
        prunedRecipientReleased.load(ordering: .relaxed) + prunedSenderReleased.load(ordering: .relaxed)
    }
}
