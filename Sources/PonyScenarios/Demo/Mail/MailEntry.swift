import Dispatch
import PonyExpress

/// One demo mail type's operations, written once generically so that every post and registration goes through
/// the real, typed `PostOffice` API.
struct MailEntry: Sendable {
    let type: any Mail.Type
    /// Makes a value from a random number and posts it.
    let post: @Sendable (_ office: PostOffice, _ sender: AnyObject?, _ random: UInt64) -> Void
    /// Registers an object's method.
    let subscribe:
        @Sendable (_ recipient: any DemoRecipient, _ office: PostOffice, _ queue: DispatchQueue?, DemoSenderFilter) ->
            RecipientId
    /// Registers a block, from the site of its role.
    let observe:
        @Sendable (
            _ role: BlockObserver.Role, _ inbox: Inbox, _ office: PostOffice, _ queue: DispatchQueue?, DemoSenderFilter
        ) -> RecipientId

    init<M: Mail & Sendable>(_ type: M.Type, make: @escaping @Sendable (UInt64) -> M) {
        self.type = type
        post = { office, sender, random in office.post(make(random), sender: sender) }
        subscribe = { recipient, office, queue, sender in
            recipient.subscribe(to: M.self, in: office, queue: queue, sender: sender)
        }
        observe = { role, inbox, office, queue, sender in
            BlockObserver.observe(M.self, role: role, inbox: inbox, in: office, queue: queue, sender: sender)
        }
    }
}
