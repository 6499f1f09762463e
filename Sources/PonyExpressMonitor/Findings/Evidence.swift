import PonyExpress

/// One number behind a ``Finding``, such as a live recipient count or a rate, with its unit.
///
/// ```swift
/// let growth = finding.evidence(named: .growth)
/// print(finding.evidence.map(\.description).joined(separator: ", "))  // "live: 21, growth: 21, ..."
/// ```
public struct Evidence: Sendable, Codable, Hashable, CustomStringConvertible {
    /// What a number is: `live`, `growth per second`. The names rules use are constants of this type, such as
    /// ``live`` and ``growth``.
    public struct Name: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
        ExpressibleByStringLiteral
    {
        /// The name, in a few words.
        public let rawValue: String

        /// Creates a name.
        ///
        /// - Parameter rawValue: The name, in a few words.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a name.
        ///
        /// - Parameter value: The name, in a few words.
        public init(stringLiteral value: String) {
            rawValue = value
        }

        public var description: String { rawValue }
    }

    /// What kind of number a piece of evidence is, for formatting it.
    public enum Unit: String, Sendable, Codable, Hashable {
        /// A count or a plain number.
        case count
        /// A duration in nanoseconds.
        case nanoseconds
        /// A rate per second.
        case perSecond
        /// A share from 0 to 1.
        case share
    }

    /// What the number is.
    public let name: Name
    /// The number.
    public let value: Double
    /// Its unit.
    public let unit: Unit

    /// Creates a piece of evidence.
    ///
    /// - Parameters:
    ///   - name: What the number is.
    ///   - value: The number.
    ///   - unit: Its unit; a count unless said otherwise.
    public init(name: Name, value: Double, unit: Unit = .count) {
        self.name = name
        self.value = value
        self.unit = unit
    }

    /// The value as a person reads it: `21`, `4.2/s`, `3.80s`, `64%`.
    public var formattedValue: String { formattedValue(micro: "µ") }

    /// The value as a person reads it, with `micro` for the microsecond prefix (`u` where text must be ASCII).
    public func formattedValue(micro: String) -> String {
        guard value.isFinite else { return "-" }
        return switch unit {
        case .count: value == value.rounded() ? Units.count(Units.nanoseconds(rounding: value)) : Units.compact(value)
        case .nanoseconds: Units.duration(Units.nanoseconds(rounding: value), micro: micro)
        case .perSecond: Units.compact(value) + "/s"
        case .share: Units.decimal(value * 100, places: value < 0.1 ? 1 : 0) + "%"
        }
    }

    /// `name: value`, formatted by its unit.
    public var description: String { "\(name): \(formattedValue)" }
}
