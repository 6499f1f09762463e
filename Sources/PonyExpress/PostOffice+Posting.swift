import Dispatch
import Synchronization

private let nextPostId = Atomic<UInt64>(1)

extension PostOffice {
    /// Posts mail to every recipient registered for its type.
    ///
    /// Synchronous recipients run on this thread before `post` returns; queued recipients are scheduled on their
    /// queues. A recipient whose sender filter does not accept `sender` is skipped.
    ///
    /// ```swift
    /// PostOffice.default.post(ExampleNotification(info: 12, other: 15), sender: sender)
    /// ```
    ///
    /// - Parameters:
    ///   - mail: The value to deliver. Its dynamic type decides who receives it: recipients of that type and of its
    ///     superclasses.
    ///   - sender: The object posting the mail, if any. Recipients can filter on its type or on the exact instance.
    public func post<M: Mail>(_ mail: M, sender: AnyObject? = nil) {
        let (route, taps) = route(for: type(of: mail))
        var context: TapContext?
        if !taps.isEmpty {
            let posting = Posting(
                postId: nextPostId.wrappingAdd(1, ordering: .relaxed).oldValue,
                mailType: TypeIdentity(type(of: mail)), senderType: sender.map { TypeIdentity(type(of: $0)) },
                matched: route.registrations.count, time: now())
            context = TapContext(taps: taps, posting: posting)
            context?.emit(.posted(posting))
        }
        for registration in route.registrations {
            offer(mail, sender: sender, to: registration, context: context)
        }
    }

    /// Applies the registration's filters, then delivers now or schedules delivery on its queue.
    @inline(__always)
    private func offer<M: Mail>(_ mail: M, sender: AnyObject?, to registration: Registration, context: TapContext?) {
        guard registration.isActive.load(ordering: .acquiring) else {
            context?.skip(registration, .unregistered)
            return
        }
        if registration.hasExactSender {
            guard let exactSender = registration.exactSender else {
                remove(CollectionOfOne(registration.id), pruned: .senderReleased)
                return
            }
            guard exactSender === sender else {
                context?.skip(registration, .senderMismatch)
                return
            }
        } else if !registration.handler.accepts(sender: sender) {
            context?.skip(registration, .senderMismatch)
            return
        }
        guard let queue = registration.queue else {
            PostOffice.run(
                mail, sender: sender, registration: registration, context: context, queued: false, office: self)
            return
        }
        let parcel = Parcel(mail: mail, sender: sender)
        queue.async { [weak self] in
            // If the post office is gone, the registration was never removed: the posted mail is still delivered.
            PostOffice.run(
                parcel.mail, sender: parcel.sender, registration: registration, context: context, queued: true,
                office: self)
        }
    }

    /// Runs one handler: the last checks (recipient alive, still registered), then the call, timed when tapped.
    @inline(__always)
    private static func run<M: Mail>(
        _ mail: M, sender: AnyObject?, registration: Registration, context: TapContext?, queued: Bool,
        office: PostOffice?
    ) {
        var recipient: AnyObject?
        if registration.hasObject {
            guard let object = registration.object else {
                office?.remove(CollectionOfOne(registration.id), pruned: .recipientReleased)
                return
            }
            recipient = object
        }
        if queued, !registration.isActive.load(ordering: .acquiring) {
            context?.skip(registration, .unregistered)
            return
        }
        guard let context else {
            registration.handler.deliver(mail, sender: sender, recipient: recipient)
            return
        }
        let startedAt = now()
        registration.handler.deliver(mail, sender: sender, recipient: recipient)
        let finishedAt = now()
        context.emit(
            .delivered(
                Delivery(
                    postId: context.posting.postId, recipient: registration.id, mailType: context.posting.mailType,
                    queueLabel: registration.info.queueLabel, postedAt: context.posting.time, startedAt: startedAt,
                    finishedAt: finishedAt)))
    }
}

/// The taps of one post and the post's identity, carried to every delivery of that post.
struct TapContext: Sendable {
    let taps: [any DeliveryTap]
    let posting: Posting

    func emit(_ event: TapEvent) {
        for tap in taps { tap.receive(event) }
    }

    func skip(_ registration: Registration, _ reason: Skip.Reason) {
        emit(
            .skipped(
                Skip(postId: posting.postId, recipient: registration.id, mailType: posting.mailType, reason: reason)))
    }
}

/// Posted mail and its sender on their way to a recipient's queue. The caller hands the value over to that queue,
/// as `NotificationCenter` does; mail need not be `Sendable`.
private struct Parcel<M>: @unchecked Sendable {
    let mail: M
    let sender: AnyObject?
}
