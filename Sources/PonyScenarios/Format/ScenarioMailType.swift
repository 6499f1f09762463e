import Dispatch
import PonyExpress

/// The demo mail types a scenario can post and register for, named as in Swift.
public enum ScenarioMailType: String, CaseIterable, Hashable, Sendable {
    /// ``LoginEvent``, a struct.
    case loginEvent = "LoginEvent"
    /// ``LogoutEvent``, a struct.
    case logoutEvent = "LogoutEvent"
    /// ``CartUpdated``, a struct.
    case cartUpdated = "CartUpdated"
    /// ``DownloadProgress``, a struct.
    case downloadProgress = "DownloadProgress"
    /// ``Reachability``, an enum.
    case reachability = "Reachability"
    /// ``AppEvent``, the base class of the event hierarchy.
    case appEvent = "AppEvent"
    /// ``ScreenViewed``, a subclass of ``AppEvent``.
    case screenViewed = "ScreenViewed"
    /// ``NetworkEvent``, a subclass of ``AppEvent``.
    case networkEvent = "NetworkEvent"
    /// ``RequestFinished``, a subclass of ``NetworkEvent``.
    case requestFinished = "RequestFinished"
    /// ``RequestFailed``, a subclass of ``NetworkEvent``.
    case requestFailed = "RequestFailed"

    /// The Swift type.
    public var type: any Mail.Type { entry.type }

    /// The sender that posts this mail unless a scenario says otherwise.
    public var defaultSender: ScenarioSenderType {
        switch self {
        case .loginEvent, .logoutEvent: .authService
        case .cartUpdated: .cartService
        case .downloadProgress: .downloadManager
        case .reachability: .networkMonitor
        case .appEvent, .screenViewed: .router
        case .networkEvent, .requestFinished, .requestFailed: .apiClient
        }
    }

    /// How to make, post and register this type.
    var entry: MailEntry {
        switch self {
        case .loginEvent: MailEntry(LoginEvent.self) { LoginEvent(random: $0) }
        case .logoutEvent: MailEntry(LogoutEvent.self) { LogoutEvent(random: $0) }
        case .cartUpdated: MailEntry(CartUpdated.self) { CartUpdated(random: $0) }
        case .downloadProgress: MailEntry(DownloadProgress.self) { DownloadProgress(random: $0) }
        case .reachability: MailEntry(Reachability.self) { Reachability(random: $0) }
        case .appEvent: MailEntry(AppEvent.self) { AppEvent(sequence: $0) }
        case .screenViewed: MailEntry(ScreenViewed.self) { ScreenViewed(random: $0) }
        case .networkEvent:
            MailEntry(NetworkEvent.self) { NetworkEvent(sequence: $0, path: NetworkEvent.randomPath($0)) }
        case .requestFinished: MailEntry(RequestFinished.self) { RequestFinished(random: $0) }
        case .requestFailed: MailEntry(RequestFailed.self) { RequestFailed(random: $0) }
        }
    }
}
