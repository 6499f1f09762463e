/// The demo sender classes a scenario can post from and filter on.
public enum ScenarioSenderType: String, CaseIterable, Hashable, Sendable {
    /// ``AuthService``.
    case authService = "AuthService"
    /// ``CartService``.
    case cartService = "CartService"
    /// ``DownloadManager``.
    case downloadManager = "DownloadManager"
    /// ``NetworkMonitor``.
    case networkMonitor = "NetworkMonitor"
    /// ``Router``.
    case router = "Router"
    /// ``APIClient``.
    case apiClient = "APIClient"

    /// The Swift class.
    public var type: any DemoSender.Type {
        switch self {
        case .authService: AuthService.self
        case .cartService: CartService.self
        case .downloadManager: DownloadManager.self
        case .networkMonitor: NetworkMonitor.self
        case .router: Router.self
        case .apiClient: APIClient.self
        }
    }

    /// How many instances of each sender class a runner keeps; posts pick one at random, and an `exactly` sender
    /// filter accepts only the first.
    public static let instancesPerType = 2
}
