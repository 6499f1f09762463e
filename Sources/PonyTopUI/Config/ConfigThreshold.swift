import PonyExpressMonitor

/// One monitor threshold the config file can set, under the name ``MonitorSettings`` gives it.
package struct ConfigThreshold: Sendable {
    /// The setting's name in ``MonitorSettings`` and in the config file.
    package let name: String
    /// What the number means, for the comment in the default file.
    package let meaning: String
    /// Whether only whole numbers are valid.
    package let isWhole: Bool
    private let read: @Sendable (MonitorSettings) -> Double
    private let write: @Sendable (inout MonitorSettings, Double) -> Void

    private init(
        _ name: String, _ meaning: String, whole: Bool, read: @escaping @Sendable (MonitorSettings) -> Double,
        write: @escaping @Sendable (inout MonitorSettings, Double) -> Void
    ) {
        self.name = name
        self.meaning = meaning
        isWhole = whole
        self.read = read
        self.write = write
    }

    private static func number(
        _ name: String, _ meaning: String, _ path: WritableKeyPath<MonitorSettings, Double> & Sendable
    ) -> ConfigThreshold {
        ConfigThreshold(name, meaning, whole: false, read: { $0[keyPath: path] }, write: { $0[keyPath: path] = $1 })
    }

    private static func whole(
        _ name: String, _ meaning: String, _ path: WritableKeyPath<MonitorSettings, Int> & Sendable
    ) -> ConfigThreshold {
        ConfigThreshold(
            name, meaning, whole: true, read: { Double($0[keyPath: path]) },
            write: { $0[keyPath: path] = Int(exactly: $1) ?? Int.max })
    }

    /// The value in `settings`.
    package func value(in settings: MonitorSettings) -> Double { read(settings) }

    /// Sets the value in `settings`.
    package func set(_ value: Double, in settings: inout MonitorSettings) { write(&settings, value) }

    /// Every threshold the config file can set, in the order the default file lists them.
    package static let all: [ConfigThreshold] = [
        whole(
            "oversubscriptionThreshold", "live recipients of one mail type above which it is oversubscribed",
            \.oversubscriptionThreshold),
        number("leakWindow", "seconds over which growth, blocks and queue waits are judged", \.leakWindow),
        whole("leakMinimumGrowth", "live registrations a site must gain over the window to leak", \.leakMinimumGrowth),
        number("leakGrowingShare", "share of the window's seconds in which a leaking site grows", \.leakGrowingShare),
        whole("blockGrowthSeconds", "seconds in which never-unregistered blocks must grow", \.blockGrowthSeconds),
        number(
            "pruneRateThreshold", "prunes per second from one site above which it is reported", \.pruneRateThreshold),
        number(
            "slowRecipientShare", "share of its mail type's handler time that makes a recipient slow",
            \.slowRecipientShare),
        whole(
            "slowRecipientMinimumDeliveries", "deliveries a recipient needs before it can be slow",
            \.slowRecipientMinimumDeliveries),
        number("risingWaitShare", "share of seconds in which a rising queue wait rises", \.risingWaitShare),
        number("risingWaitFactor", "how many times its early wait a rising queue's late wait is", \.risingWaitFactor),
    ]

    /// The threshold called `name`, if there is one.
    package static func named(_ name: String) -> ConfigThreshold? {
        all.first { $0.name == name }
    }
}
