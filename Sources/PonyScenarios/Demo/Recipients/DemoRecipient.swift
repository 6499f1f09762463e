import Dispatch
import PonyExpress

/// A demo recipient object: a view-model-like class that registers its methods and is held weakly.
///
/// Each class registers from its own line, so ponytop shows one registration site per class.
protocol DemoRecipient: AnyObject, Sendable {
    /// What the object does with each delivery.
    var inbox: Inbox { get }
    /// Creates an object whose handlers report to `inbox`.
    init(inbox: Inbox)
    /// Registers the object's handler for `mailType`.
    func subscribe<M: Mail & Sendable>(
        to mailType: M.Type, in office: PostOffice, queue: DispatchQueue?, sender: DemoSenderFilter
    ) -> RecipientId
}

/// What every demo object is made of: the inbox its handlers report to. A class of its own supplies only
/// ``DemoRecipient/subscribe(to:in:queue:sender:)``, written in its own file, so that it registers from a line of
/// its own.
class DemoObject: @unchecked Sendable {
    // Unchecked only because the class is not final: its one stored property is a constant of a Sendable type, and
    // its subclasses (which restate the conformance) add none.
    let inbox: Inbox

    required init(inbox: Inbox) {
        self.inbox = inbox
    }
}

extension DemoRecipient {
    /// The handler for mail without a sender parameter.
    func receive<M: Mail & Sendable>(_ mail: M) {
        inbox.take()
    }

    /// The handler for mail from a sender of type `S`.
    func receive<M: Mail, S: AnyObject>(_ mail: M, from sender: S) {
        inbox.take()
    }

    /// The handler for mail from an optional sender of type `S`.
    func receive<M: Mail, S: AnyObject>(_ mail: M, fromOptional sender: S?) {
        inbox.take()
    }
}
