/// One setting of a finding rule: a threshold or a window, with its default and its valid range.
///
/// Read and set it through ``MonitorSettings/subscript(_:)``, or by its ``name`` with
/// ``MonitorSettings/setParameter(named:to:)`` (what `ponytop --rule-setting NAME=VALUE` does).
public struct RuleParameter: Sendable, Hashable, CustomStringConvertible {
    /// What a parameter's value is measured in.
    public enum Unit: String, Sendable, Hashable {
        /// A count.
        case count
        /// Seconds.
        case seconds
        /// A share from 0 to 1.
        case share
        /// A plain factor or percentile.
        case number
        /// Events per second.
        case perSecond
    }

    /// The rule it belongs to.
    public let kind: Finding.Kind
    /// Its short name within the rule: `wait`.
    public let key: String
    /// What it does, in one line.
    public let summary: String
    /// What its value is measured in.
    public let unit: Unit
    /// Its value unless set.
    public let defaultValue: Double
    /// The values it accepts.
    public let range: ClosedRange<Double>
    /// Whether its value must be whole (a count, or whole seconds).
    public let isWhole: Bool

    /// Its full name, `kind.key`: `stalledQueue.wait`.
    public var name: String { "\(kind.rawValue).\(key)" }

    /// Creates a parameter.
    ///
    /// - Parameters:
    ///   - kind: The rule it belongs to.
    ///   - key: Its short name within the rule.
    ///   - summary: What it does, in one line.
    ///   - unit: What its value is measured in.
    ///   - defaultValue: Its value unless set.
    ///   - range: The values it accepts.
    ///   - isWhole: Whether its value must be whole.
    public init(
        _ kind: Finding.Kind, _ key: String, _ summary: String, unit: Unit, default defaultValue: Double,
        range: ClosedRange<Double>, isWhole: Bool = false
    ) {
        self.kind = kind
        self.key = key
        self.summary = summary
        self.unit = unit
        self.defaultValue = defaultValue
        self.range = range
        self.isWhole = isWhole
    }

    /// Whether `value` is one it accepts.
    public func accepts(_ value: Double) -> Bool {
        value.isFinite && range.contains(value) && (!isWhole || value == value.rounded())
    }

    /// The nearest value it accepts: the default for a value that is not a number.
    func clamp(_ value: Double) -> Double {
        guard value.isFinite else { return defaultValue }
        let inRange = Swift.min(range.upperBound, Swift.max(range.lowerBound, value))
        return isWhole ? inRange.rounded() : inRange
    }

    /// What it accepts, for an error message: `seconds from 0.001 to 100`.
    public var validValues: String {
        let unitName =
            switch unit {
            case .count: "a whole number"
            case .seconds: isWhole ? "whole seconds" : "seconds"
            case .share: "a share"
            case .number: isWhole ? "a whole number" : "a number"
            case .perSecond: "a rate per second"
            }
        return "\(unitName) from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
    }

    /// `name = default unit`, for lists.
    public var description: String { "\(name) = \(Self.format(defaultValue))" }

    /// A number without a needless `.0`.
    package static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
