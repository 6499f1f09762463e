import Foundation
import PonyExpress
import PonyExpressFoundation
import PonyTestSupport
import Testing

private let settingsChanged = Notification.Name("SettingsUpdated")

private struct SettingsUpdated: Mail, Equatable {
    let key: String
}

private final class Window: Sendable {}

private struct WindowOpened: NotificationCenter.MainActorMessage {
    typealias Subject = Window
    let title: String
}

private struct DownloadFinished: NotificationCenter.AsyncMessage {
    typealias Subject = Window
    let bytes: Int
}

private struct OpenedMail: Mail { let title: String }
private struct DownloadMail: Mail { let bytes: Int }

private func settingsMail(_ notification: Notification) -> SettingsUpdated? {
    (notification.userInfo?["key"] as? String).map(SettingsUpdated.init)
}

private func settingsNotification(_ mail: SettingsUpdated, _ sender: AnyObject?) -> Notification {
    Notification(name: settingsChanged, object: sender, userInfo: ["key": mail.key])
}

/// Counts the notifications a center posts under one name, as a legacy observer would see them.
private final class LegacyObserver: Sendable {
    let keys = Tally<String>()
    private let center: NotificationCenter
    private let observer: UncheckedToken

    init(_ center: NotificationCenter) {
        self.center = center
        let keys = keys
        observer = UncheckedToken(
            center.addObserver(forName: settingsChanged, object: nil, queue: nil) { notification in
                keys.add(notification.userInfo?["key"] as? String ?? "?")
            })
    }

    deinit { center.removeObserver(observer.value) }
}

private struct UncheckedToken: @unchecked Sendable {
    let value: any NSObjectProtocol
    init(_ value: any NSObjectProtocol) { self.value = value }
}

@Suite("NotificationBridge", .blocksItsThread)
struct NotificationBridgeTests {
    @Test("a notification comes in as typed mail, posted as bridged, with its object as sender")
    func notificationIn() {
        let center = NotificationCenter()
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let bridge = NotificationBridge(center: center, office: office)
        bridge.bridge(settingsChanged, into: settingsMail)
        let received = Tally<String>()
        let window = Window()
        office.register { (mail: SettingsUpdated, sender: Window?) in
            received.add(mail.key + (sender === window ? " from window" : ""))
        }

        center.post(name: settingsChanged, object: window, userInfo: ["key": "theme"])
        center.post(name: settingsChanged, object: nil, userInfo: ["nothing": 1])

        #expect(received.all == ["theme from window"])
        #expect(tap.posted.map(\.origin) == [.bridged])
        #expect(tap.posted.first?.mailType == TypeIdentity(SettingsUpdated.self))
    }

    @Test("mail goes out as a notification to legacy observers, before post returns")
    func mailOut() {
        let center = NotificationCenter()
        let office = PostOffice()
        let bridge = NotificationBridge(center: center, office: office)
        bridge.bridge(SettingsUpdated.self, into: settingsNotification)
        let legacy = LegacyObserver(center)

        office.post(SettingsUpdated(key: "font"))

        #expect(legacy.keys.all == ["font"])
    }

    @Test("both directions bridged: each post reaches every observer once, and nothing loops")
    func bothDirections() {
        let center = NotificationCenter()
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let bridge = NotificationBridge(center: center, office: office)
        bridge.bridge(settingsChanged, into: settingsMail)
        bridge.bridge(SettingsUpdated.self, into: settingsNotification)
        let legacy = LegacyObserver(center)
        let migrated = Tally<String>()
        office.register { (mail: SettingsUpdated) in migrated.add(mail.key) }

        center.post(name: settingsChanged, object: nil, userInfo: ["key": "old"])
        office.post(SettingsUpdated(key: "new"))

        #expect(legacy.keys.all == ["old", "new"])
        #expect(migrated.all == ["old", "new"])
        #expect(tap.posted.map(\.origin) == [.bridged, .local])
    }

    @Test("two bridges relaying the same traffic both ways do not loop between them")
    func loopAcrossBridges() {
        let center = NotificationCenter()
        let office = PostOffice()
        let inward = NotificationBridge(center: center, office: office)
        let outward = NotificationBridge(center: center, office: office)
        inward.bridge(settingsChanged, into: settingsMail)
        outward.bridge(SettingsUpdated.self, into: settingsNotification)
        let legacy = LegacyObserver(center)
        let migrated = Tally<String>()
        office.register { (mail: SettingsUpdated) in migrated.add(mail.key) }

        let finished = finishes(within: 10) {
            center.post(name: settingsChanged, object: nil, userInfo: ["key": "a"])
            office.post(SettingsUpdated(key: "b"))
        }

        #expect(finished)
        #expect(legacy.keys.all == ["a", "b"])
        #expect(migrated.all == ["a", "b"])
    }

    @Test("removing a route stops it; removing the bridge's last route leaves nothing behind")
    func removal() {
        let center = NotificationCenter()
        let office = PostOffice()
        let bridge = NotificationBridge(center: center, office: office)
        let inward = bridge.bridge(settingsChanged, into: settingsMail)
        let outward = bridge.bridge(SettingsUpdated.self, into: settingsNotification)
        let legacy = LegacyObserver(center)
        let migrated = Tally<String>()
        office.register { (mail: SettingsUpdated) in migrated.add(mail.key) }
        #expect(bridge.ids == [inward, outward])
        #expect(office.recipientCount(of: SettingsUpdated.self) == 2)

        bridge.remove(inward)
        center.post(name: settingsChanged, object: nil, userInfo: ["key": "unseen"])
        #expect(migrated.all.isEmpty)
        #expect(legacy.keys.all == ["unseen"])

        bridge.remove(outward)
        bridge.remove(outward)
        office.post(SettingsUpdated(key: "quiet"))
        #expect(legacy.keys.all == ["unseen"])
        #expect(migrated.all == ["quiet"])
        #expect(office.recipientCount(of: SettingsUpdated.self) == 1)
        #expect(bridge.ids.isEmpty)
    }

    @Test("a bridge that is freed takes its routes down")
    func freedBridge() {
        let center = NotificationCenter()
        let office = PostOffice()
        var bridge: NotificationBridge? = NotificationBridge(center: center, office: office)
        bridge?.bridge(settingsChanged, into: settingsMail)
        bridge?.bridge(SettingsUpdated.self, into: settingsNotification)
        let migrated = Tally<String>()
        office.register { (mail: SettingsUpdated) in migrated.add(mail.key) }
        weak let freed = bridge
        bridge = nil

        center.post(name: settingsChanged, object: nil, userInfo: ["key": "gone"])

        #expect(freed == nil)
        #expect(migrated.all.isEmpty)
        #expect(office.recipientCount(of: SettingsUpdated.self) == 1)
    }

    @Test("a MainActorMessage comes in as mail before the center's post returns")
    @MainActor
    func mainActorMessageIn() {
        let center = NotificationCenter()
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let bridge = NotificationBridge(center: center, office: office)
        let window = Window()
        let other = Window()
        bridge.bridge(WindowOpened.self, subject: window) { OpenedMail(title: $0.title) }
        let titles = Tally<String>()
        office.register { (mail: OpenedMail) in titles.add(mail.title) }

        center.post(WindowOpened(title: "main"), subject: window)
        center.post(WindowOpened(title: "other"), subject: other)

        #expect(titles.all == ["main"])
        #expect(tap.posted.map(\.origin) == [.bridged])
    }

    @Test("an AsyncMessage comes in as mail, and stops after removal")
    func asyncMessageIn() async {
        let center = NotificationCenter()
        let office = PostOffice()
        let bridge = NotificationBridge(center: center, office: office)
        let id = bridge.bridge(DownloadFinished.self) { DownloadMail(bytes: $0.bytes) }
        let sizes = Tally<Int>()
        office.register { (mail: DownloadMail) in sizes.add(mail.bytes) }

        center.post(DownloadFinished(bytes: 42))
        // Delivery waits for a thread of the cooperative pool, which long CPU-bound tests can hold for a while.
        #expect(await eventually(timeout: 120) { sizes.count == 1 })

        bridge.remove(id)
        center.post(DownloadFinished(bytes: 7))
        // A marker message observed directly: once it has arrived, the removed route would have had its turn too.
        let marker = Tally<Int>()
        let token = center.addObserver(for: DownloadFinished.self) { marker.add($0.bytes) }
        center.post(DownloadFinished(bytes: 1))
        #expect(await eventually(timeout: 120) { marker.count >= 1 })
        center.removeObserver(token)
        #expect(sizes.all == [42])
    }
}

@Suite("NotificationBridge under concurrent posts", .blocksItsThread, .tags(.concurrency))
struct NotificationBridgeConcurrencyTests {
    @Test("threads posting both notifications and mail: every post arrives once on each side, none loops")
    func concurrentPosts() {
        let center = NotificationCenter()
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let bridge = NotificationBridge(center: center, office: office)
        bridge.bridge(settingsChanged, into: settingsMail)
        bridge.bridge(SettingsUpdated.self, into: settingsNotification)
        let legacy = LegacyObserver(center)
        let migrated = Tally<String>()
        office.register { (mail: SettingsUpdated) in migrated.add(mail.key) }
        let perThread = 200

        let finished = concurrently(4) { thread in
            for index in 0..<perThread {
                let key = "\(thread)-\(index)"
                if thread.isMultiple(of: 2) {
                    center.post(name: settingsChanged, object: nil, userInfo: ["key": key])
                } else {
                    office.post(SettingsUpdated(key: key))
                }
            }
        }

        #expect(finished)
        let expected = (0..<4).flatMap { thread in (0..<perThread).map { "\(thread)-\($0)" } }.sorted()
        #expect(legacy.keys.all.sorted() == expected)
        #expect(migrated.all.sorted() == expected)
        #expect(tap.posted.filter { $0.origin == .bridged }.count == 2 * perThread)
    }

    @Test("removing a route while other threads post: nothing comes through once remove has returned")
    func removalUnderLoad() {
        let center = NotificationCenter()
        let office = PostOffice()
        let bridge = NotificationBridge(center: center, office: office)
        let id = bridge.bridge(settingsChanged, into: settingsMail)
        let migrated = Tally<String>()
        office.register { (mail: SettingsUpdated) in migrated.add(mail.key) }
        let removed = Locked(false)
        let lateArrivals = Tally<String>()
        office.register { (mail: SettingsUpdated) in
            if removed.withLock({ $0 }) && mail.key == "after" { lateArrivals.add(mail.key) }
        }

        let finished = concurrently(3) { thread in
            if thread == 0 {
                _ = waitUntil { migrated.count >= 50 }
                bridge.remove(id)
                removed.withLock { $0 = true }
                for _ in 0..<100 { center.post(name: settingsChanged, object: nil, userInfo: ["key": "after"]) }
            } else {
                for _ in 0..<500 { center.post(name: settingsChanged, object: nil, userInfo: ["key": "before"]) }
            }
        }

        #expect(finished)
        #expect(migrated.count >= 50)
        #expect(lateArrivals.all.isEmpty)
    }
}
