/// The one way the package writes rates, counts and durations: in findings' explanations, in ponytop's panes and
/// in its reports. Short and fixed-width, so that a table column and a sentence read the same `12µs`.
package enum Units {
    /// A rate or count with a k/M/G suffix: `0`, `9.5`, `99`, `950`, `12.3k`, `4.1M`. A decimal only below 10, as
    /// durations have it, so that `99` and `433` read alike in one column.
    package static func compact(_ value: Double) -> String {
        let magnitude = abs(value)
        // Beyond what any count reaches (a recording is input from outside): as Swift writes it, never a trap.
        guard magnitude < 1e18 else { return value.isNaN ? "-" : "\(value)" }
        if magnitude < 0.05 { return "0" }
        if magnitude < 9.95 { return decimal(value, places: 1) }
        if magnitude < 1000 { return String(Int(value.rounded())) }
        let suffixes: [(Double, String)] = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        for (scale, suffix) in suffixes where magnitude >= scale {
            let scaled = value / scale
            return (abs(scaled) < 100 ? decimal(scaled, places: 1) : String(Int(scaled.rounded()))) + suffix
        }
        return String(Int(value.rounded()))
    }

    /// A whole count with a k/M/G suffix from 10 000 on.
    package static func count(_ value: UInt64) -> String {
        value < 10_000 ? String(value) : compact(Double(value))
    }

    /// A duration in nanoseconds: `850ns`, `12µs`, `1.5ms`, `2.25s`.
    ///
    /// - Parameters:
    ///   - nanoseconds: The duration.
    ///   - micro: The microsecond prefix (`µ`, or `u` in ASCII).
    package static func duration(_ nanoseconds: UInt64, micro: String = "µ") -> String {
        let value = Double(nanoseconds)
        if nanoseconds < 1_000 { return "\(nanoseconds)ns" }
        if nanoseconds < 1_000_000 {
            return (value < 10_000 ? decimal(value / 1e3, places: 1) : String(Int((value / 1e3).rounded())))
                + micro + "s"
        }
        if nanoseconds < 1_000_000_000 {
            return (value < 1e7 ? decimal(value / 1e6, places: 1) : String(Int((value / 1e6).rounded()))) + "ms"
        }
        return decimal(value / 1e9, places: value < 1e10 ? 2 : 1) + "s"
    }

    /// An age in whole units: `42s`, `3m`, `2h`; under a second, as a duration. How old a registration, a prune or
    /// a finding is, the same on screen and in reports (an uptime is a ``clock(_:)``).
    ///
    /// - Parameters:
    ///   - nanoseconds: The age.
    ///   - micro: The microsecond prefix (`µ`, or `u` in ASCII).
    package static func age(_ nanoseconds: UInt64, micro: String = "µ") -> String {
        let seconds = nanoseconds / 1_000_000_000
        if seconds < 100 { return nanoseconds < 1_000_000_000 ? duration(nanoseconds, micro: micro) : "\(seconds)s" }
        if seconds < 6_000 { return "\(seconds / 60)m" }
        return "\(seconds / 3_600)h"
    }

    /// How long ago something happened, as an ``age(_:micro:)`` and `ago`: `3s ago`; under a millisecond,
    /// `just now` (a prune the snapshot itself swept is 0 ns old, which reads as a measurement it is not).
    package static func ago(_ nanoseconds: UInt64, micro: String = "µ") -> String {
        nanoseconds < 1_000_000 ? "just now" : age(nanoseconds, micro: micro) + " ago"
    }

    /// An elapsed time in seconds as `m:ss` or `h:mm:ss`.
    package static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }

    /// A seconds value for the refresh interval: `0.5s`, `2s`.
    package static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))s" : decimal(value, places: value < 0.1 ? 2 : 1) + "s"
    }

    /// `value` rounded to `places` decimals, without Foundation.
    package static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        guard abs(value) * scale < 9e18 else { return value.isNaN ? "-" : "\(value)" }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale)
        var fraction = String(scaled % Int(scale))
        while fraction.count < places { fraction = "0" + fraction }
        return (value < 0 && scaled != 0 ? "-" : "") + "\(whole)" + (places > 0 ? "." + fraction : "")
    }

    /// A whole count or duration in nanoseconds from a computed value, rounded and clamped to what a `UInt64` holds
    /// (0 for a negative or undefined value): facts and findings from a recording are input from outside, and a
    /// mean of extreme values must print, not trap.
    package static func nanoseconds(rounding value: Double) -> UInt64 {
        guard value > 0 else { return 0 }
        return value < 18_446_744_073_709_549_568 ? UInt64(value.rounded()) : .max
    }
}
