import Dispatch
import PonyExpress

/// A demo recipient object standing for the downloads screen.
final class DownloadsViewModel: DemoObject, DemoRecipient, @unchecked Sendable {
    func subscribe<M: Mail & Sendable>(
        to mailType: M.Type, in office: PostOffice, queue: DispatchQueue?, sender: DemoSenderFilter
    ) -> RecipientId {
        sender.register(self, for: mailType, in: office, queue: queue)
    }
}
