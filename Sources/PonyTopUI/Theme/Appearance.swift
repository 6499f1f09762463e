/// How one ``Style`` looks: colours (or the terminal's own, `nil`) and attributes.
package struct Appearance: Equatable, Sendable {
    /// Text attributes.
    package struct Attributes: OptionSet, Hashable, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        package static let bold = Attributes(rawValue: 1)
        package static let dim = Attributes(rawValue: 2)
        package static let underline = Attributes(rawValue: 4)
        package static let reverse = Attributes(rawValue: 8)
    }

    /// The text colour, `nil` for the terminal's own.
    package var foreground: TerminalColor?
    /// The background, `nil` for the terminal's own.
    package var background: TerminalColor?
    /// Bold, dim, underline, reverse.
    package var attributes: Attributes

    /// Creates an appearance.
    package init(_ foreground: TerminalColor? = nil, on background: TerminalColor? = nil, _ attributes: Attributes = [])
    {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}
