/// A ``MonitorSettings`` value out of its valid range.
public struct MonitorSettingsError: Error, Hashable, CustomStringConvertible {
    /// The setting's name.
    public let setting: String
    /// The value given.
    public let value: String
    /// What is valid.
    public let expected: String

    /// Creates an error for one setting.
    ///
    /// - Parameters:
    ///   - setting: The setting's name.
    ///   - value: The value given.
    ///   - expected: What is valid.
    public init(setting: String, value: String, expected: String) {
        self.setting = setting
        self.value = value
        self.expected = expected
    }

    /// `invalid monitor setting shortWindow = 0: expected seconds ≥ 1`.
    public var description: String { "invalid monitor setting \(setting) = \(value): expected \(expected)" }
}
