import Dispatch
import Synchronization

/// How a handler treats the sender; checked before delivery so that a mismatch is reported as a skip.
enum SenderRule {
    /// No sender parameter.
    case ignored
    /// `S?`: `nil` or an `S`.
    case optional
    /// `S`: only an `S`.
    case required
}

/// A handler boxed in a class, so that delivery calls the stored closure at its own type instead of casting a
/// stored closure to a function type (which would wrap it in a reabstraction thunk).
class Handler: @unchecked Sendable {
    /// Whether `sender` passes this handler's sender type.
    func accepts(sender: AnyObject?) -> Bool { true }

    /// Runs the handler. `recipient` is the live object for method registrations, `nil` for blocks.
    func deliver<M: Mail>(_ mail: M, sender: AnyObject?, recipient: AnyObject?) {}
}

/// The one handler shape every public `register` overload is turned into.
final class TypedHandler<Contents, Sender: AnyObject>: Handler, @unchecked Sendable {
    let rule: SenderRule
    let body: (_ mail: Contents, _ sender: Sender?, _ recipient: AnyObject?) -> Void

    init(rule: SenderRule, body: @escaping (Contents, Sender?, AnyObject?) -> Void) {
        self.rule = rule
        self.body = body
    }

    override func accepts(sender: AnyObject?) -> Bool {
        switch rule {
        case .ignored: true
        case .optional: sender == nil || sender is Sender
        case .required: sender is Sender
        }
    }

    override func deliver<M: Mail>(_ mail: M, sender: AnyObject?, recipient: AnyObject?) {
        // The route only holds registrations whose mail type matched this value, and `accepts(sender:)` ran first.
        let contents = mail as! Contents
        let typedSender = rule == .ignored ? nil : sender.map { unsafeDowncast($0, to: Sender.self) }
        body(contents, typedSender, recipient)
    }
}

/// One registration: what to call, for which mail, from whom, and where.
final class Registration: @unchecked Sendable {
    let info: RecipientInfo
    let handler: Handler
    let queue: DispatchQueue?
    /// Whether the recipient is an object held weakly (otherwise a block).
    let hasObject: Bool
    weak var object: AnyObject?
    /// Whether the registration filters on one exact sender.
    let hasExactSender: Bool
    weak var exactSender: AnyObject?
    /// Cleared when the registration is unregistered or pruned; checked before every delivery.
    let isActive = Atomic<Bool>(true)

    init(
        info: RecipientInfo, handler: Handler, queue: DispatchQueue?, object: AnyObject?, exactSender: AnyObject?
    ) {
        self.info = info
        self.handler = handler
        self.queue = queue
        self.hasObject = object != nil
        self.object = object
        self.hasExactSender = exactSender != nil
        self.exactSender = exactSender
    }

    var id: RecipientId { info.id }
}

/// What a `register` overload hands to the one internal registration path.
struct RegistrationRequest {
    let mailType: any Any.Type
    let kind: RecipientKind
    let sender: SenderFilter
    let handler: Handler
    let queue: DispatchQueue?
    let object: AnyObject?
    let exactSender: AnyObject?
    let site: SourceLocation
    /// Builds the mail-type bucket when this is the first registration for the type.
    let makeBucket: () -> Bucket
}
