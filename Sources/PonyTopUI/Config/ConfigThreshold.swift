import PonyExpressMonitor

/// One monitor threshold the config file can set: a rule parameter, under its full name.
package struct ConfigThreshold: Sendable {
    /// The parameter's full name, in the config file and on the command line.
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

    /// The value in `settings`.
    package func value(in settings: MonitorSettings) -> Double { read(settings) }

    /// Sets the value in `settings`.
    package func set(_ value: Double, in settings: inout MonitorSettings) { write(&settings, value) }

    /// Every threshold the config file can set: every parameter of the monitor's rules, rule by rule, under the name
    /// `ponytop --rule-setting` and `--list-rules` use (`stalledQueue.wait`).
    package static let all: [ConfigThreshold] = FindingRules.parameters.map { parameter in
        ConfigThreshold(
            parameter.name, parameter.summary, whole: parameter.isWhole, read: { $0[parameter] },
            write: { $0[parameter] = $1 })
    }

    /// The threshold called `name`, if there is one.
    package static func named(_ name: String) -> ConfigThreshold? {
        all.first { $0.name == name }
    }
}
