import Dispatch
import PonyExpress

/// Blocks an app registers once at start-up and keeps for its whole life.
enum AppObserver {
    /// Registers a block for `mailType` that hands each delivery to `inbox`, from this file's own line.
    static func observe<M: Mail & Sendable>(
        _ mailType: M.Type, inbox: Inbox, in office: PostOffice, queue: DispatchQueue?, sender: DemoSenderFilter
    ) -> RecipientId {
        sender.registerBlock(for: mailType, inbox: inbox, in: office, queue: queue)
    }
}
