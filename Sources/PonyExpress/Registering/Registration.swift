import Dispatch
import Synchronization

/// One registration: what to call, for which mail, from whom, where, and on which queue.
///
/// The handler lives in the generic subclass ``TypedRegistration``, so that delivery calls the stored closure at
/// its own type instead of casting a stored closure to a function type (which would wrap it in a reabstraction
/// thunk).
class Registration: @unchecked Sendable {
    let info: RecipientInfo
    /// How the handler treats the sender; `.absent` handlers accept every sender without a type check.
    let senderParameter: SenderParameter
    let queue: DispatchQueue?
    /// Whether the recipient is an object held weakly (otherwise a block).
    let hasObject: Bool
    weak var object: AnyObject?
    /// Whether the registration filters on one exact sender.
    let hasExactSender: Bool
    weak var exactSender: AnyObject?
    /// Cleared, under the post office's lock, when the registration is unregistered or pruned; checked before
    /// every delivery, and again inside the entry handshake (``ThreadRuns``) just before the handler is called.
    let isActive = Atomic<Bool>(true)
    /// Set when a thread first enters a run of this registration; until then `unregister` has no runs to wait for.
    let wasEntered = Atomic<Bool>(false)
    /// Whether it delivers once (``RegistrationOptions/once``): a delivery claims it by clearing ``isActive``.
    let isOnce: Bool

    init(info: RecipientInfo, senderParameter: SenderParameter, target: RegistrationTarget) {
        // Read before `info` is stored, which would otherwise keep a second copy of it alive to read from.
        self.isOnce = info.options.contains(.once)
        self.info = info
        self.senderParameter = senderParameter
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
