import Foundation
import PonyExpress

/// The subject the Foundation message buses post with: messages may only be observed per subject when it is a class.
final class BenchSubject: Sendable {}

/// `BenchMail` as a Foundation typed message delivered on the main actor.
struct MainActorBenchMessage: NotificationCenter.MainActorMessage {
    typealias Subject = BenchSubject
    let mail: BenchMail
}

/// `BenchMail` as a Foundation typed message delivered asynchronously.
struct AsyncBenchMessage: NotificationCenter.AsyncMessage {
    typealias Subject = BenchSubject
    let mail: BenchMail
}

/// A main-actor message type per generated mail type, for rows with thousands of other types registered.
struct MainActorOtherMessage<Inner: Mail>: NotificationCenter.MainActorMessage {
    typealias Subject = BenchSubject
}

/// An asynchronous message type per generated mail type.
struct AsyncOtherMessage<Inner: Mail>: NotificationCenter.AsyncMessage {
    typealias Subject = BenchSubject
}
