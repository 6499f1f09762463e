import Dispatch
import Foundation
import PonyExpress
import PonyExpressFoundation

/// The part of the demo app that has not migrated yet: it posts `AppThemeChanged` to `NotificationCenter.default`
/// once a second, as code written before PonyExpress does, and a bridge relays it into the post office as
/// ``ThemeChanged`` mail, so that ponytop shows it (marked as bridged) beside the rest of the app's traffic.
final class LegacyThemeNotifications {
    /// The notification the legacy code posts.
    static let name = Notification.Name("AppThemeChanged")

    private let office: PostOffice
    private let bridge: NotificationBridge
    private let timer: any DispatchSourceTimer
    private let recipient: RecipientId

    /// Starts posting the notification once a second and bridging it into `office`.
    init(office: PostOffice) {
        bridge = NotificationBridge(center: .default, office: office)
        bridge.bridge(Self.name) { notification in
            ThemeChanged(isDark: notification.userInfo?["dark"] as? Bool ?? false)
        }
        // A migrated screen, which now receives the theme as typed mail.
        recipient = office.register { (change: ThemeChanged) in _ = change.isDark }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "demo.legacy-theme"))
        let posts = LegacyPostCount()
        timer.setEventHandler {
            NotificationCenter.default.post(
                name: Self.name, object: nil, userInfo: ["dark": posts.next().isMultiple(of: 2)])
        }
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.resume()
        self.timer = timer
        self.office = office
    }

    /// Stops the legacy posts, the bridge and the migrated screen's registration.
    func stop() {
        timer.cancel()
        bridge.removeAll()
        office.unregister(recipient)
    }
}

/// The theme as typed mail: what the bridge makes of each `AppThemeChanged` notification.
struct ThemeChanged: Mail {
    let isDark: Bool
}

/// How many notifications the legacy timer has posted; touched only on the timer's serial queue.
private final class LegacyPostCount: @unchecked Sendable {
    private var count = 0

    func next() -> Int {
        count += 1
        return count
    }
}
