import Foundation
import PonyExpress
import Synchronization

/// Relays chosen `NotificationCenter` traffic into a `PostOffice` as typed mail, and chosen mail back
/// out as notifications, for an app that moves its observers over a little at a time.
///
/// Each direction is one closure the app writes: from a notification (or a Foundation typed message) to the mail it
/// defines, or from mail to the notification legacy observers still wait for. Mail that comes in is posted with
/// `PostOrigin.bridged`, so taps, the monitor and ponytop tell it from the app's own posts.
///
/// ```swift
/// let bridge = NotificationBridge(center: .default, office: .default)
/// bridge.bridge(Notification.Name("SettingsChanged")) { notification in
///     SettingsChanged(key: notification.userInfo?["key"] as? String ?? "")
/// }
/// bridge.bridge(SettingsChanged.self) { mail, _ in
///     Notification(name: Notification.Name("SettingsChanged"), object: nil, userInfo: ["key": mail.key])
/// }
/// ```
///
/// Both directions may be bridged for the same traffic: a bridge never relays back what it is relaying at that
/// moment on that thread, so a notification that comes in as mail does not go out again to the legacy observers
/// that already had it, and mail that goes out does not come back in. The guard spans every bridge in the process.
/// It holds because the bridge observes and posts synchronously on the posting thread; mail posted to the bridge's
/// recipient on another thread, or notifications posted through a `NotificationQueue`, are new posts.
///
/// ``remove(_:)`` stops one route, ``removeAll()`` every route; a bridge that is freed removes its routes.
public final class NotificationBridge: Sendable {
    /// The notification center whose traffic the bridge relays.
    public let center: NotificationCenter
    /// The post office mail comes in to and goes out from.
    public let office: PostOffice

    private let routes = Locked<[BridgeId: BridgeRoute]>([:])
    private let nextId = Atomic<UInt64>(0)

    /// Creates a bridge between a notification center and a post office, with no routes yet.
    ///
    /// - Parameters:
    ///   - center: The notification center to observe and post to.
    ///   - office: The post office to post to and receive from.
    public init(center: NotificationCenter = .default, office: PostOffice = .default) {
        self.center = center
        self.office = office
    }

    deinit {
        removeAll()
    }

    /// The ids of the routes in place.
    public var ids: [BridgeId] {
        routes.withLock { $0.keys.sorted() }
    }

    /// Relays notifications named `name` into the post office as the mail `makeMail` makes of them.
    ///
    /// The notification's object becomes the mail's sender when it is a class instance. Notifications that
    /// `makeMail` returns `nil` for are not relayed.
    ///
    /// - Parameters:
    ///   - name: The notification name to observe.
    ///   - object: Relay only notifications posted with exactly this object; `nil` for any.
    ///   - makeMail: Makes the mail for a notification, or `nil` to drop it.
    /// - Returns: An id for ``remove(_:)``.
    @discardableResult
    public func bridge<M: Mail>(
        _ name: Notification.Name, object: AnyObject? = nil,
        into makeMail: @escaping @Sendable (Notification) -> M?
    ) -> BridgeId {
        let route = BridgeRoute()
        let source = BridgeKey.name(ObjectIdentifier(center), name.rawValue)
        let office = office
        let observer = center.addObserver(forName: name, object: object, queue: nil) { notification in
            Self.relayIn(on: route, from: source, to: office, sender: Self.sender(of: notification.object)) {
                makeMail(notification)
            }
        }
        let center = center
        route.onShutOff { [observer = UncheckedObserver(observer)] in center.removeObserver(observer.value) }
        return add(route)
    }

    /// Relays Foundation typed messages delivered asynchronously (`NotificationCenter.AsyncMessage`) into the post
    /// office as the mail `makeMail` makes of them.
    ///
    /// The center delivers such messages on its own tasks, so the mail is posted there, after `post` returned.
    ///
    /// - Parameters:
    ///   - messageType: The message type to observe.
    ///   - subject: Relay only messages posted with exactly this subject; `nil` for any.
    ///   - makeMail: Makes the mail for a message, or `nil` to drop it.
    /// - Returns: An id for ``remove(_:)``.
    @discardableResult
    public func bridge<Message: NotificationCenter.AsyncMessage, M: Mail>(
        _ messageType: Message.Type, subject: Message.Subject? = nil,
        into makeMail: @escaping @Sendable (Message) -> M?
    ) -> BridgeId where Message.Subject: AnyObject {
        let route = BridgeRoute()
        let office = office
        let token = center.addObserver(of: subject, for: messageType) { message in
            Self.relayIn(on: route, from: .message(ObjectIdentifier(Message.self)), to: office, sender: nil) {
                makeMail(message)
            }
        }
        return add(route, observing: token)
    }

    /// Relays Foundation typed messages delivered on the main actor (`NotificationCenter.MainActorMessage`) into
    /// the post office as the mail `makeMail` makes of them, on the main actor, before the center's `post` returns.
    ///
    /// - Parameters:
    ///   - messageType: The message type to observe.
    ///   - subject: Relay only messages posted with exactly this subject; `nil` for any.
    ///   - makeMail: Makes the mail for a message, or `nil` to drop it.
    /// - Returns: An id for ``remove(_:)``.
    @discardableResult
    public func bridge<Message: NotificationCenter.MainActorMessage, M: Mail>(
        _ messageType: Message.Type, subject: Message.Subject? = nil,
        into makeMail: @escaping @MainActor (Message) -> M?
    ) -> BridgeId where Message.Subject: AnyObject {
        let route = BridgeRoute()
        let office = office
        let token = center.addObserver(of: subject, for: messageType) { @MainActor message in
            Self.relayIn(on: route, from: .message(ObjectIdentifier(Message.self)), to: office, sender: nil) {
                makeMail(message)
            }
        }
        return add(route, observing: token)
    }

    /// Posts a notification to the center for each mail of `mailType`, for observers that still listen by name.
    ///
    /// The bridge's recipient takes the mail synchronously on the posting thread, so legacy observers run before the
    /// mail's `post` returns, as they did when the app posted the notification itself. Mail that this or another
    /// bridge is relaying in from the same notification at that moment is not sent back out.
    ///
    /// - Parameters:
    ///   - mailType: The mail type to send out.
    ///   - makeNotification: Makes the notification for a mail and its sender, or `nil` to drop it.
    /// - Returns: An id for ``remove(_:)``.
    @discardableResult
    public func bridge<M: Mail>(
        _ mailType: M.Type, into makeNotification: @escaping @Sendable (M, AnyObject?) -> Notification?
    ) -> BridgeId {
        let route = BridgeRoute()
        let center = center
        let source = BridgeKey.mail(ObjectIdentifier(M.self))
        let recipient = office.register { (mail: M, sender: AnyObject?) in
            guard route.isOn, !BridgeLoopGuard.isRelaying(source) else { return }
            guard let notification = makeNotification(mail, sender) else { return }
            BridgeLoopGuard.relay(from: source, to: .name(ObjectIdentifier(center), notification.name.rawValue)) {
                center.post(notification)
            }
        }
        let office = office
        route.onShutOff { office.unregister(recipient) }
        return add(route)
    }

    /// Stops one route. Unknown or repeated ids are ignored.
    ///
    /// Once this returns, nothing posted afterwards goes through the route. An outgoing route also waits for a
    /// notification it is posting on another thread, as `PostOffice.unregister(_:)`
    /// does.
    public func remove(_ id: BridgeId) {
        routes.withLock { $0.removeValue(forKey: id) }?.shutOff()
    }

    /// Stops every route of this bridge.
    public func removeAll() {
        let all = routes.withLock { routes in
            defer { routes.removeAll() }
            return routes.sorted { $0.key < $1.key }.map(\.value)
        }
        for route in all { route.shutOff() }
    }

    /// Adds a route in from a Foundation typed message, which ends by removing its observation.
    private func add(_ route: BridgeRoute, observing token: NotificationCenter.ObservationToken) -> BridgeId {
        let center = center
        route.onShutOff { center.removeObserver(token) }
        return add(route)
    }

    private func add(_ route: BridgeRoute) -> BridgeId {
        let id = BridgeId(rawValue: nextId.add(1, ordering: .relaxed).newValue)
        routes.withLock { $0[id] = route }
        return id
    }

    /// Relays one notification or message that came in as the mail `makeMail` makes of it, unless the route is off,
    /// `makeMail` drops it, or the bridge is relaying the other way at that moment (``BridgeLoopGuard``).
    private static func relayIn<M: Mail>(
        on route: BridgeRoute, from source: BridgeKey, to office: PostOffice, sender: AnyObject?,
        _ makeMail: () -> M?
    ) {
        guard route.isOn else { return }
        BridgeLoopGuard.relay(from: source, to: .mail(ObjectIdentifier(M.self))) {
            guard let mail = makeMail() else { return }
            office.post(mail, sender: sender, origin: .bridged)
        }
    }

    /// The sender of bridged mail: the notification's object when it is a class instance.
    private static func sender(of object: Any?) -> AnyObject? {
        guard let object, type(of: object) is AnyClass else { return nil }
        return object as AnyObject
    }
}

/// An observer token, which Foundation does not mark `Sendable`; the bridge only hands it back to its center.
private struct UncheckedObserver: @unchecked Sendable {
    let value: any NSObjectProtocol
    init(_ value: any NSObjectProtocol) { self.value = value }
}
