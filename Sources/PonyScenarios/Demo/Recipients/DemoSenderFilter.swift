import Dispatch
import PonyExpress

/// Which senders a demo registration accepts, resolved to real sender types and instances; each case picks the
/// matching `PostOffice.register` overload, so the tap reports the real sender filter.
enum DemoSenderFilter: Sendable {
    /// A handler without a sender parameter.
    case any
    /// A handler taking `S?`.
    case optional(any DemoSender.Type)
    /// A handler taking `S`.
    case required(any DemoSender.Type)
    /// Registered with `sender:` on one exact instance.
    case exact(any DemoSender)

    /// Registers `recipient`'s `receive` method for `M`; `file` and `line` are the recipient class's own call site.
    func register<R: DemoRecipient, M: Mail & Sendable>(
        _ recipient: R, for mailType: M.Type, in office: PostOffice, queue: DispatchQueue?,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        switch self {
        case .any:
            return office.register(
                queue: queue, recipient, R.receive(_:) as (R) -> (M) -> Void, file: file, filePath: filePath, line: line
            )
        case .exact(let sender):
            return office.register(
                queue: queue, sender: sender, recipient, R.receive(_:) as (R) -> (M) -> Void, file: file,
                filePath: filePath, line: line)
        case .optional(let senderType):
            return DemoSenderFilter.registerOptional(
                recipient, M.self, senderType, office: office, queue: queue, file: file, filePath: filePath, line: line)
        case .required(let senderType):
            return DemoSenderFilter.registerRequired(
                recipient, M.self, senderType, office: office, queue: queue, file: file, filePath: filePath, line: line)
        }
    }

    /// Registers a block for `M` that hands each delivery to `inbox`. The block holds the inbox strongly, as
    /// blocks do, until it is unregistered.
    func registerBlock<M: Mail & Sendable>(
        for mailType: M.Type, inbox: Inbox, in office: PostOffice, queue: DispatchQueue?,
        file: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
    ) -> RecipientId {
        switch self {
        case .any:
            return office.register(queue: queue, { (_: M) in inbox.take() }, file: file, filePath: filePath, line: line)
        case .exact(let sender):
            return office.register(
                queue: queue, sender: sender, { (_: M) in inbox.take() }, file: file, filePath: filePath, line: line)
        case .optional(let senderType):
            return DemoSenderFilter.registerOptionalBlock(
                M.self, senderType, inbox: inbox, office: office, queue: queue, file: file, filePath: filePath,
                line: line)
        case .required(let senderType):
            return DemoSenderFilter.registerRequiredBlock(
                M.self, senderType, inbox: inbox, office: office, queue: queue, file: file, filePath: filePath,
                line: line)
        }
    }

    private static func registerOptional<R: DemoRecipient, M: Mail & Sendable, S: DemoSender>(
        _ recipient: R, _: M.Type, _: S.Type, office: PostOffice, queue: DispatchQueue?, file: StaticString,
        filePath: StaticString, line: UInt
    ) -> RecipientId {
        office.register(
            queue: queue, recipient, R.receive(_:fromOptional:) as (R) -> (M, S?) -> Void, file: file,
            filePath: filePath, line: line)
    }

    private static func registerRequired<R: DemoRecipient, M: Mail & Sendable, S: DemoSender>(
        _ recipient: R, _: M.Type, _: S.Type, office: PostOffice, queue: DispatchQueue?, file: StaticString,
        filePath: StaticString, line: UInt
    ) -> RecipientId {
        office.register(
            queue: queue, recipient, R.receive(_:from:) as (R) -> (M, S) -> Void, file: file, filePath: filePath,
            line: line)
    }

    private static func registerOptionalBlock<M: Mail & Sendable, S: DemoSender>(
        _: M.Type, _: S.Type, inbox: Inbox, office: PostOffice, queue: DispatchQueue?, file: StaticString,
        filePath: StaticString, line: UInt
    ) -> RecipientId {
        office.register(queue: queue, { (_: M, _: S?) in inbox.take() }, file: file, filePath: filePath, line: line)
    }

    private static func registerRequiredBlock<M: Mail & Sendable, S: DemoSender>(
        _: M.Type, _: S.Type, inbox: Inbox, office: PostOffice, queue: DispatchQueue?, file: StaticString,
        filePath: StaticString, line: UInt
    ) -> RecipientId {
        office.register(queue: queue, { (_: M, _: S) in inbox.take() }, file: file, filePath: filePath, line: line)
    }
}
