import Foundation
import PonyExpress

/// Foundation's typed `NotificationCenter.MainActorMessage` (Swift 6.3): delivered synchronously on the main actor,
/// so posted from the main thread only.
final class MainActorMessageBus: TypedMessageBus {
    static let name = "MainActorMessage"
    static let postsFromAnyThread = false
    let observations = MessageObservations()

    required init() {}

    func subscribe(_ handler: @escaping @Sendable (BenchMail) -> Void) -> NotificationCenter.ObservationToken {
        return observations.keep(
            observations.center.addObserver(for: MainActorBenchMessage.self) { message in handler(message.mail) })
    }

    func observeOther<T: Mail>(_ type: T.Type) -> NotificationCenter.ObservationToken {
        observations.center.addObserver(for: MainActorOtherMessage<T>.self) { blackHole($0) }
    }

    func unsubscribe(_ token: NotificationCenter.ObservationToken) {
        observations.remove(token)
    }

    /// The benchmark runs on the main thread; `assumeIsolated` is how code that is not marked `@MainActor` posts
    /// there, and it checks that this is so.
    func post(_ mail: BenchMail) {
        MainActor.assumeIsolated { [center = observations.center] in center.post(MainActorBenchMessage(mail: mail)) }
    }
}
