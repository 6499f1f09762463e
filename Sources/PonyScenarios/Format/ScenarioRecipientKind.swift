/// What a demo recipient is: an object of one of the demo view-model classes (held weakly, registering a method),
/// or a block (held strongly until unregistered).
public enum ScenarioRecipientKind: String, CaseIterable, Hashable, Sendable {
    /// A `SessionViewModel` object.
    case sessionViewModel = "SessionViewModel"
    /// A `CartViewModel` object.
    case cartViewModel = "CartViewModel"
    /// A `DownloadsViewModel` object.
    case downloadsViewModel = "DownloadsViewModel"
    /// A `StatusBarController` object.
    case statusBarController = "StatusBarController"
    /// An `AnalyticsLogger` object.
    case analyticsLogger = "AnalyticsLogger"
    /// A block.
    case block = "block"

    /// Whether this kind is a block rather than an object.
    public var isBlock: Bool { self == .block }

    /// The object's class, or `nil` for a block.
    var objectType: (any DemoRecipient.Type)? {
        switch self {
        case .sessionViewModel: SessionViewModel.self
        case .cartViewModel: CartViewModel.self
        case .downloadsViewModel: DownloadsViewModel.self
        case .statusBarController: StatusBarController.self
        case .analyticsLogger: AnalyticsLogger.self
        case .block: nil
        }
    }
}
