extension String {
    /// The text with every character that could steer a terminal written out as a Swift escape, `\u{1B}`: the C0
    /// and C1 control characters (ESC, BEL, CR, LF, tab, DEL, CSI among them) and the bidirectional overrides that
    /// reorder what is shown. Everything else is kept as it is.
    ///
    /// Names that reach a terminal come from outside: an app's mail types through its agent, a recording someone
    /// shared. `ESC]0;...BEL` would set the terminal's title, `ESC[2J` clear the screen, a CR or LF forge a line.
    ///
    /// ```swift
    /// "Cart\u{1B}[2J".terminalSafe  // Cart\u{1B}[2J, as 13 printable characters
    /// ```
    package var terminalSafe: String {
        guard unicodeScalars.contains(where: \.steersTerminal) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if scalar.steersTerminal {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Unicode.Scalar {
    /// Whether the scalar could steer a terminal: a C0 or C1 control, DEL, the line and paragraph separators
    /// (U+2028, U+2029, which break a line as LF does in some terminals and most log viewers), or a bidirectional
    /// embedding, override or isolate (U+202A-U+202E, U+2066-U+2069).
    package var steersTerminal: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
