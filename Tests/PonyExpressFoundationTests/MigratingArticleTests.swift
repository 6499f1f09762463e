import Foundation
import PonyExpress
import PonyExpressFoundation
import PonyTestSupport
import Testing

// The "Migrating from NotificationCenter" article's examples, held verbatim (DocumentedCodeTests) and run in order.

// Example begin
struct SettingsChanged: Mail {
    let key: String
}

// Example end

/// Held by each test that bridges `NotificationCenter.default` into `PostOffice.default` (as the documented examples
/// do), so that two such tests never see each other's bridged mail.
let defaultCenterInUse = NSLock()

extension Notification.Name {
    fileprivate static let settingsChanged = Notification.Name("SettingsChanged")
}

@Suite(
    "The Migrating from NotificationCenter article, step by step", .blocksItsThread, .serialized, .tags(.concurrency))
struct MigratingArticleTests {
    /// Not on the main actor: Foundation's `post` waits for an observer's operation on `OperationQueue.main`, which
    /// a post from the main thread would never let run.
    @Test("bridged in, an observer moved, bridged back out: each observer gets each change once")
    func steps() {
        defaultCenterInUse.lock()
        defer { defaultCenterInUse.unlock() }
        // Example begin
        let bridge = NotificationBridge(center: .default, office: .default)
        bridge.bridge(Notification.Name("SettingsChanged")) { notification in
            (notification.userInfo?["key"] as? String).map(SettingsChanged.init)
        }
        // Example end
        let screen = SettingsScreen()
        screen.observe()
        // Old code still posts the notification: the legacy observer and the moved one both get it.
        NotificationCenter.default.post(name: .settingsChanged, object: nil, userInfo: ["key": "font"])
        #expect(waitUntil(timeout: 30) { screen.reloads.all == ["font"] && screen.mails.all == ["font"] })

        // Example begin
        bridge.bridge(SettingsChanged.self) { mail, sender in
            Notification(name: Notification.Name("SettingsChanged"), object: sender, userInfo: ["key": mail.key])
        }
        PostOffice.default.post(SettingsChanged(key: "theme"))  // legacy observers run before post returns
        // Example end
        // New code posts the mail: both get it, once each; nothing loops back in.
        #expect(
            waitUntil(timeout: 30) {
                screen.reloads.all == ["font", "theme"] && screen.mails.all == ["font", "theme"]
            })
        bridge.removeAll()
        screen.stop()
    }
}

/// A screen halfway through its migration: observing the old notification and registered for the new mail.
private final class SettingsScreen: @unchecked Sendable {
    let reloads = Tally<String>()
    let mails = Tally<String>()
    var token: (any NSObjectProtocol)?

    func reload(_ key: String?) { reloads.add(key ?? "?") }
    func settingsChanged(_ mail: SettingsChanged) { mails.add(mail.key) }

    func observe() {
        // Example begin
        // Before: a token to keep and remove, a userInfo dictionary to decode.
        token = NotificationCenter.default.addObserver(forName: .settingsChanged, object: nil, queue: .main) { note in
            self.reload(note.userInfo?["key"] as? String)
        }
        // After: held weakly, nothing to remove, typed.
        PostOffice.default.register(queue: .main, self, SettingsScreen.settingsChanged)
        // Example end
    }

    func stop() {
        token.map(NotificationCenter.default.removeObserver)
        PostOffice.default.unregister(self)
    }
}
