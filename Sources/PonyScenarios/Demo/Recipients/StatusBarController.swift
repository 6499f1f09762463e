import Dispatch
import PonyExpress

/// A demo recipient object standing for the status bar.
final class StatusBarController: DemoObject, DemoRecipient, @unchecked Sendable {
    func subscribe<M: Mail & Sendable>(
        to mailType: M.Type, in office: PostOffice, queue: DispatchQueue?, sender: DemoSenderFilter
    ) -> RecipientId {
        guard case .any = sender else { return sender.register(self, for: mailType, in: office, queue: queue) }
        // The status bar only needs to know that something changed: a method without parameters.
        return office.register(queue: queue, mailType, self, StatusBarController.refresh)
    }

    /// Redraws the status bar.
    func refresh() {
        inbox.take()
    }
}
