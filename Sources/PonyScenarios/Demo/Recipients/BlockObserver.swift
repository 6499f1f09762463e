import Dispatch
import PonyExpress

/// Registers demo blocks, held strongly by the post office until they are unregistered, each from the call site of
/// its role, as an app's blocks are: so that ponytop tells a leaking group's site from the healthy ones'.
enum BlockObserver {
    /// What a group of blocks stands for in an app, which decides where it registers.
    enum Role: Sendable {
        /// Registered once at start-up and kept for the whole run (``AppObserver``).
        case appWide
        /// Registered while a screen is shown and unregistered when it goes (``ScreenObserver``).
        case screen
        /// Registered each time a list cell is reused and never unregistered (``CellObserver``): where blocks leak.
        case cell

        /// The role of a scenario's block group, from how its blocks live and end.
        init(_ group: ScenarioRecipients) {
            if group.lifetime == nil {
                self = .appWide
            } else if group.end == .leak || group.end == .reregister {
                self = .cell
            } else {
                self = .screen
            }
        }
    }

    /// Registers a block for `mailType` that hands each delivery to `inbox`, from the site of `role`.
    static func observe<M: Mail & Sendable>(
        _ mailType: M.Type, role: Role, inbox: Inbox, in office: PostOffice, queue: DispatchQueue?,
        sender: DemoSenderFilter
    ) -> RecipientId {
        switch role {
        case .appWide: AppObserver.observe(mailType, inbox: inbox, in: office, queue: queue, sender: sender)
        case .screen: ScreenObserver.observe(mailType, inbox: inbox, in: office, queue: queue, sender: sender)
        case .cell: CellObserver.observe(mailType, inbox: inbox, in: office, queue: queue, sender: sender)
        }
    }
}
