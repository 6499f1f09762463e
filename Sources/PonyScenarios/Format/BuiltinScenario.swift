extension Scenario {
    /// The built-in scenarios, `app` (the default) first: `app`, `leaky`, `oversubscribed`, `burst`, `churn`,
    /// `hierarchy`, `flood` and `scoped`.
    ///
    /// Each is kept here as the text of its scenario file and read by the same parser as any file, so the format
    /// and the built-ins cannot drift apart. `Assets/Scenarios/` holds a copy of each, which a test compares with
    /// this text; the program never reads those files.
    public static let builtins: [Scenario] = BuiltinScenario.sources.map { source in
        do {
            return try Scenario.parse(Array(source.text.utf8), fileName: "\(source.name).json (built in)")
        } catch {
            // A test parses every built-in, so this can only fail in a build whose tests fail.
            fatalError("built-in scenario \(source.name) does not parse: \(error)")
        }
    }
}

/// The text of one built-in scenario file.
struct BuiltinScenario: Sendable {
    let name: String
    let text: String

    static let sources: [BuiltinScenario] = [
        BuiltinScenario(
            name: "app",
            text: #"""
                {
                    "name": "app",
                    "summary": "A healthy shopping app: sign-ins, screens, cart, downloads, network; clean comings and goings",
                    "then": "repeat",
                    "recipients": [
                        { "kind": "SessionViewModel", "mail": ["LoginEvent", "LogoutEvent"], "queue": "ui",
                          "sender": "AuthService" },
                        { "kind": "CartViewModel", "mail": "CartUpdated", "count": 2, "queue": "ui", "sender": "CartService?",
                          "lifetime": 6, "end": "unregister" },
                        { "kind": "DownloadsViewModel", "mail": "DownloadProgress", "count": 3, "queue": "ui",
                          "sender": "exactly DownloadManager", "lifetime": 4, "end": "unregister" },
                        { "kind": "StatusBarController", "mail": ["Reachability", "LoginEvent", "LogoutEvent"] },
                        { "kind": "AnalyticsLogger", "mail": "AppEvent", "queue": "workers" },
                        { "kind": "block", "mail": "ScreenViewed", "queue": "ui" },
                        { "kind": "block", "mail": "Reachability", "count": 2, "queue": "network" },
                        { "kind": "block", "mail": "CartUpdated", "queue": "storage", "lifetime": 3, "end": "unregister" },
                        { "kind": "block", "mail": ["RequestFinished", "RequestFailed"], "queue": "network",
                          "sender": "APIClient" }
                    ],
                    "phases": [
                        { "name": "launch", "duration": 3, "rate": 1000,
                          "mail": { "LoginEvent": 1, "Reachability": 2, "ScreenViewed": 4, "RequestFinished": 6 } },
                        { "name": "browsing", "duration": 20, "threads": 2, "rate": 1200,
                          "mail": { "ScreenViewed": 4, "CartUpdated": 3, "RequestFinished": 8, "RequestFailed": 1,
                                    "DownloadProgress": 6, "Reachability": 1 } },
                        { "name": "checkout", "duration": 7, "rate": 1000,
                          "mail": { "CartUpdated": 6, "RequestFinished": 4, "ScreenViewed": 2, "LogoutEvent": 1,
                                    "LoginEvent": 1 } }
                    ]
                }
                """#),
        BuiltinScenario(
            name: "leaky",
            text: #"""
                {
                    "name": "leaky",
                    "summary": "Cart blocks never unregistered and session objects kept alive: both pile up",
                    "then": "repeat",
                    "recipients": [
                        { "kind": "StatusBarController", "mail": "Reachability" },
                        { "kind": "AnalyticsLogger", "mail": "AppEvent", "queue": "workers" },
                        { "kind": "block", "mail": "CartUpdated", "lifetime": 0.25, "end": "leak", "limit": 5000 },
                        { "kind": "SessionViewModel", "mail": "LoginEvent", "queue": "ui", "lifetime": 0.25, "end": "leak",
                          "limit": 2000 }
                    ],
                    "phases": [
                        { "name": "shopping", "duration": 30, "threads": 2, "rate": 1000,
                          "mail": { "CartUpdated": 4, "LoginEvent": 1, "ScreenViewed": 3, "Reachability": 1 } }
                    ]
                }
                """#),
        BuiltinScenario(
            name: "oversubscribed",
            text: #"""
                {
                    "name": "oversubscribed",
                    "summary": "150 status bars on Reachability, and cart screens that register again on every appearance",
                    "then": "repeat",
                    "recipients": [
                        { "kind": "StatusBarController", "mail": "Reachability", "count": 150 },
                        { "kind": "CartViewModel", "mail": "CartUpdated", "count": 3, "queue": "ui", "lifetime": 0.5,
                          "end": "reregister", "limit": 300 },
                        { "kind": "AnalyticsLogger", "mail": "AppEvent", "queue": "workers" }
                    ],
                    "phases": [
                        { "name": "browsing", "duration": 30, "threads": 2, "rate": 500,
                          "mail": { "Reachability": 1, "CartUpdated": 3, "ScreenViewed": 2 } }
                    ]
                }
                """#),
        BuiltinScenario(
            name: "burst",
            text: #"""
                {
                    "name": "burst",
                    "summary": "Bursts of download progress into a slow handler on a serial queue: the queue wait climbs",
                    "then": "repeat",
                    "recipients": [
                        { "kind": "DownloadsViewModel", "mail": "DownloadProgress", "queue": "storage", "handlerTime": 0.002 },
                        { "kind": "StatusBarController", "mail": ["DownloadProgress", "Reachability"] },
                        { "kind": "block", "mail": "RequestFinished", "queue": "network" }
                    ],
                    "phases": [
                        { "name": "calm", "duration": 5, "rate": 100,
                          "mail": { "DownloadProgress": 2, "RequestFinished": 1, "Reachability": 1 } },
                        { "name": "bursts", "duration": 15, "rate": 200,
                          "mail": { "DownloadProgress": 1, "RequestFinished": 1 },
                          "bursts": { "every": 1, "size": 400, "mail": "DownloadProgress" } },
                        { "name": "drain", "duration": 10, "rate": 50,
                          "mail": { "RequestFinished": 1, "Reachability": 1 } }
                    ]
                }
                """#),
        BuiltinScenario(
            name: "churn",
            text: #"""
                {
                    "name": "churn",
                    "summary": "Download screens die without unregistering every 0.2 s: many dead weak references to prune",
                    "then": "repeat",
                    "recipients": [
                        { "kind": "DownloadsViewModel", "mail": "DownloadProgress", "count": 20, "lifetime": 0.2,
                          "end": "release" },
                        { "kind": "CartViewModel", "mail": "CartUpdated", "count": 10, "queue": "ui", "lifetime": 0.3,
                          "end": "unregister" },
                        { "kind": "block", "mail": "Reachability", "count": 5, "lifetime": 0.2, "end": "unregister" }
                    ],
                    "phases": [
                        { "name": "churning", "duration": 30, "threads": 2, "rate": 2000,
                          "mail": { "DownloadProgress": 4, "CartUpdated": 2, "Reachability": 1 } }
                    ]
                }
                """#),
        BuiltinScenario(
            name: "hierarchy",
            text: #"""
                {
                    "name": "hierarchy",
                    "summary": "Class mail: AppEvent recipients get every subclass, NetworkEvent ones only network events",
                    "then": "repeat",
                    "recipients": [
                        { "kind": "AnalyticsLogger", "mail": "AppEvent", "queue": "workers" },
                        { "kind": "block", "mail": "NetworkEvent", "queue": "network" },
                        { "kind": "StatusBarController", "mail": "RequestFailed", "sender": "APIClient?" },
                        { "kind": "SessionViewModel", "mail": "ScreenViewed", "queue": "ui", "sender": "Router" },
                        { "kind": "block", "mail": "RequestFinished", "sender": "exactly APIClient" }
                    ],
                    "phases": [
                        { "name": "screens", "duration": 5, "rate": 500, "mail": { "ScreenViewed": 4, "AppEvent": 1 } },
                        { "name": "network", "duration": 5, "rate": 500,
                          "mail": { "RequestFinished": 4, "RequestFailed": 1, "NetworkEvent": 1 } },
                        { "name": "everything", "duration": 10, "rate": 500,
                          "mail": { "AppEvent": 1, "ScreenViewed": 3, "NetworkEvent": 1, "RequestFinished": 3,
                                    "RequestFailed": 1 } }
                    ]
                }
                """#),
        BuiltinScenario(
            name: "flood",
            text: #"""
                {
                    "name": "flood",
                    "summary": "The app's recipients under mail posted as fast as two threads can: the machine's ceiling",
                    "then": "repeat",
                    "recipients": [
                        { "kind": "SessionViewModel", "mail": ["LoginEvent", "LogoutEvent"], "sender": "AuthService" },
                        { "kind": "CartViewModel", "mail": "CartUpdated", "count": 2, "sender": "CartService?" },
                        { "kind": "StatusBarController", "mail": "Reachability" },
                        { "kind": "AnalyticsLogger", "mail": "AppEvent" },
                        { "kind": "block", "mail": ["RequestFinished", "RequestFailed"], "sender": "APIClient" }
                    ],
                    "phases": [
                        { "name": "flood", "duration": 60, "threads": 2, "rate": "max",
                          "mail": { "ScreenViewed": 4, "CartUpdated": 3, "RequestFinished": 8, "RequestFailed": 1,
                                    "Reachability": 1, "LoginEvent": 1 } }
                    ]
                }
                """#),
        BuiltinScenario(
            name: "scoped",
            text: #"""
                {
                    "name": "scoped",
                    "summary": "A server whose requests are scopes: one in 50 leaves its CartUpdated block registered behind it",
                    "then": "repeat",
                    "recipients": [
                        { "kind": "AnalyticsLogger", "mail": "AppEvent", "queue": "workers" },
                        { "kind": "block", "mail": "CartUpdated", "count": 20, "lifetime": 0.5,
                          "scope": "GET /cart/updates", "leakEvery": 50, "limit": 5000 },
                        { "kind": "SessionViewModel", "mail": "LoginEvent", "count": 4, "lifetime": 1, "end": "release",
                          "scope": "GET /session" }
                    ],
                    "phases": [
                        { "name": "serving", "duration": 30, "threads": 2, "rate": 500,
                          "mail": { "CartUpdated": 3, "LoginEvent": 1, "ScreenViewed": 2 } }
                    ]
                }
                """#),
    ]
}
