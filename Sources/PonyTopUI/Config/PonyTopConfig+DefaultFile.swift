import PonyExpressMonitor

extension PonyTopConfig {
    /// The text `ponytop --write-config` writes: every setting at its default, each with a comment.
    package static var defaultFileText: String {
        let defaults = PonyTopConfig()
        var lines = [
            "// ponytop's settings, written by `ponytop --write-config`: every value below is the default.",
            "// Change what you like and delete the rest; `//` and `#` start comments, trailing commas are fine.",
            "// Command-line options (--theme, --refresh) win over this file.",
            "{",
            "    // The colours: " + Theme.all.map { "\"\($0.name)\" \($0.summary)" }.joined(separator: "; ") + ".",
            "    \"theme\": \"\(defaults.theme.name)\",",
            "    // Seconds between screen refreshes, 0.05 to 60; + lengthens and - shortens it while ponytop runs.",
            "    \"refresh\": \(Self.format(defaults.refresh)),",
            "    // When the monitor reports a finding (the names are those of `ponytop --list-rules`).",
            "    \"thresholds\": {",
        ]
        for threshold in ConfigThreshold.all {
            lines.append(
                "        \"\(threshold.name)\": \(Self.format(threshold.value(in: defaults.monitor))),  // "
                    + threshold.meaning)
        }
        lines += [
            "    },",
            "    // Which findings the monitor reports: false turns one off (the help screen's legend says what each is).",
            "    \"rules\": {",
        ]
        for kind in Finding.Kind.allCases {
            lines.append("        \"\(kind.rawValue)\": \(defaults.reports(kind)),")
        }
        lines += ["    },", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A number as a person writes it: `10`, `0.5`.
    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
