import Foundation
import PonyExpress

/// Foundation's typed `NotificationCenter.MainActorMessage` (Swift 6.3): delivered synchronously on the main actor,
/// so posted from the main thread only.
final class MainActorMessageBus: Bus {
    static let name = "MainActorMessage"
    static let postsFromAnyThread = false
    private let center = NotificationCenter()
    /// Every observation made: one ends when its token is released, so the bus keeps them all.
    private var tokens: [NotificationCenter.ObservationToken] = []

    required init() {}

    func subscribe(_ handler: @escaping (BenchMail) -> Void) -> NotificationCenter.ObservationToken {
        nonisolated(unsafe) let handler = handler
        let token = center.addObserver(for: MainActorBenchMessage.self) { message in handler(message.mail) }
        tokens.append(token)
        return token
    }

    func subscribeOther(_ index: Int) {
        struct Subscriber: MailTypeVisitor {
            let bus: MainActorMessageBus
            func visit<T: Mail>(_ type: T.Type) {
                bus.tokens.append(bus.center.addObserver(for: MainActorOtherMessage<T>.self) { blackHole($0) })
            }
        }
        withOtherMailType(index, Subscriber(bus: self))
    }

    func unsubscribe(_ token: NotificationCenter.ObservationToken) {
        center.removeObserver(token)
        if tokens.last == token { tokens.removeLast() } else { tokens.removeAll { $0 == token } }
    }

    /// The benchmark runs on the main thread; `assumeIsolated` is how code that is not marked `@MainActor` posts
    /// there, and it checks that this is so.
    func post(_ mail: BenchMail) {
        MainActor.assumeIsolated { [center] in center.post(MainActorBenchMessage(mail: mail)) }
    }
}
