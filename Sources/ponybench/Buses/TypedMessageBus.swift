import Foundation
import PonyExpress

/// A bus on Foundation's typed messages (`NotificationCenter.MainActorMessage`, `NotificationCenter.AsyncMessage`):
/// the bus says how to observe the message of a generated mail type; subscribing to the other mail types follows.
protocol TypedMessageBus: Bus where Token == NotificationCenter.ObservationToken {
    /// The bus's center and its observations.
    var observations: MessageObservations { get }
    /// Observes, on ``observations``' center and without keeping the token, the message type that stands for the
    /// generated mail type `T`.
    func observeOther<T: Mail>(_ type: T.Type) -> NotificationCenter.ObservationToken
}

extension TypedMessageBus {
    func subscribeOther(_ index: Int) {
        withOtherMailType(index, OtherSubscriber(bus: self))
    }
}

/// Observes a generated mail type's message on a typed-message bus.
private struct OtherSubscriber<B: TypedMessageBus>: MailTypeVisitor {
    let bus: B

    func visit<T: EmptyMail>(_ type: T.Type) {
        bus.observations.keep(bus.observeOther(type))
    }
}
