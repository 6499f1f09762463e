import Dispatch
import Synchronization

/// How a handler treats the sender; checked before delivery so that a mismatch is reported as a skip.
@usableFromInline
enum SenderRule {
    /// No sender parameter.
    case ignored
    /// `S?`: `nil` or an `S`.
    case optional
    /// `S`: only an `S`.
    case required
}

/// One registration: what to call, for which mail, from whom, where, and on which queue.
///
/// The handler lives in the generic subclass ``TypedRegistration``, so that delivery calls the stored closure at
/// its own type instead of casting a stored closure to a function type (which would wrap it in a reabstraction
/// thunk).
class Registration: @unchecked Sendable {
    let info: RecipientInfo
    /// How the handler treats the sender; `.ignored` handlers accept every sender without a type check.
    let rule: SenderRule
    let queue: DispatchQueue?
    /// Whether the recipient is an object held weakly (otherwise a block).
    let hasObject: Bool
    weak var object: AnyObject?
    /// Whether the registration filters on one exact sender.
    let hasExactSender: Bool
    weak var exactSender: AnyObject?
    /// Cleared, under the post office's lock, when the registration is unregistered or pruned; checked before
    /// every delivery.
    let isActive = Atomic<Bool>(true)

    init(info: RecipientInfo, rule: SenderRule, target: RegistrationTarget) {
        self.info = info
        self.rule = rule
        self.queue = target.queue
        self.hasObject = target.object != nil
        self.object = target.object
        self.hasExactSender = target.exactSender != nil
        self.exactSender = target.exactSender
    }

    var id: RecipientId { info.id }

    /// Whether `sender` passes the handler's sender type.
    func accepts(sender: AnyObject?) -> Bool { true }

    /// Runs the handler. `recipient` is the live object for method registrations, `nil` for blocks.
    func deliver<M: Mail>(_ mail: M, sender: AnyObject?, recipient: AnyObject?) {}
}

/// Where a registration delivers: its queue, its weakly held object and its exact sender.
struct RegistrationTarget {
    let queue: DispatchQueue?
    let object: AnyObject?
    let exactSender: AnyObject?
}

/// The one handler shape every public `register` overload is turned into.
final class TypedRegistration<Contents: Mail, Sender: AnyObject>: Registration, @unchecked Sendable {
    let body: (_ mail: Contents, _ sender: Sender?, _ recipient: AnyObject?) -> Void

    init(
        info: RecipientInfo, rule: SenderRule, target: RegistrationTarget,
        body: @escaping (Contents, Sender?, AnyObject?) -> Void
    ) {
        self.body = body
        super.init(info: info, rule: rule, target: target)
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
        let typedSender = rule == .ignored ? nil : sender.map { unsafeDowncast($0, to: Sender.self) }
        if M.self == Contents.self {
            // The common case, mail posted at its registered type: no dynamic cast.
            body(unsafeBitCast(mail, to: Contents.self), typedSender, recipient)
        } else {
            body(mail as! Contents, typedSender, recipient)
        }
    }
}

/// What a `register` overload hands to the one internal registration path.
struct RegistrationRequest {
    let mailType: any Any.Type
    let kind: RecipientKind
    let sender: SenderFilter
    let target: RegistrationTarget
    let site: SourceLocation
    /// Builds the registration once its id and details are known.
    let makeRegistration: (RecipientInfo) -> Registration
    /// Builds the mail-type bucket when this is the first registration for the type.
    let makeBucket: () -> Bucket
}
