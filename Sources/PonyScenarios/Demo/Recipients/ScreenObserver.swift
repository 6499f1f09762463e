import Dispatch
import PonyExpress

/// Blocks a screen registers while it is shown and unregisters when it goes.
enum ScreenObserver {
    /// Registers a block for `mailType` that hands each delivery to `inbox`, from this file's own line.
    static func observe<M: Mail & Sendable>(
        _ mailType: M.Type, inbox: Inbox, in office: PostOffice, queue: DispatchQueue?, sender: DemoSenderFilter
    ) -> RecipientId {
        sender.registerBlock(for: mailType, inbox: inbox, in: office, queue: queue)
    }
}
