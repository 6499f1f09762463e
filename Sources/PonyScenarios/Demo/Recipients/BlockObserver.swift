import Dispatch
import PonyExpress

/// Registers demo blocks, held strongly by the post office until they are unregistered.
enum BlockObserver {
    /// Registers a block for `mailType` that hands each delivery to `inbox`.
    static func observe<M: Mail>(
        _ mailType: M.Type, inbox: Inbox, in office: PostOffice, queue: DispatchQueue?, sender: DemoSenderFilter
    ) -> RecipientId {
        sender.registerBlock(for: mailType, inbox: inbox, in: office, queue: queue)
    }
}
