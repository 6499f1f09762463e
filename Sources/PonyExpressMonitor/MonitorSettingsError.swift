/// A ``MonitorSettings`` value out of its valid range.
public struct MonitorSettingsError: Error, Hashable, CustomStringConvertible {
    /// The setting's name.
    public let setting: String
    /// The value given.
    public let value: String
    /// What is valid.
    public let expected: String

    /// `invalid monitor setting shortWindow = 0: expected seconds ≥ 1`.
    public var description: String { "invalid monitor setting \(setting) = \(value): expected \(expected)" }
}
