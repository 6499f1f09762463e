/// The look of every ``Style``: colours for terminals that have them, attributes alone for those that do not or
/// when `NO_COLOR` is set.
///
/// Panes name roles, never colours; a theme maps the roles. `dark` suits a dark background (ponytop's original
/// look), `light` a light one; ``monochrome`` is used without colours whatever the theme.
package struct Theme: Sendable, Equatable {
    /// The name `--theme` and the config file use.
    package let name: String
    /// One line for `--help` and the help screen.
    package let summary: String
    /// The background the theme is made for, as a palette index, for contrast checks.
    package let assumedBackground: Int
    /// The foreground the terminal is assumed to use for text without a colour, as a palette index.
    package let assumedForeground: Int
    private let appearances: [Appearance]

    /// Creates a theme from the appearance of every role.
    package init(
        name: String, summary: String, assumedBackground: Int, assumedForeground: Int,
        _ appearance: (Style) -> Appearance
    ) {
        self.name = name
        self.summary = summary
        self.assumedBackground = assumedBackground
        self.assumedForeground = assumedForeground
        appearances = Style.allCases.map(appearance)
    }

    /// The appearance of a role.
    package subscript(style: Style) -> Appearance {
        appearances[Int(style.rawValue)]
    }

    /// The themes, the default first.
    package static let all = [dark, light]

    /// The theme named `name`, if there is one.
    package static func named(_ name: String) -> Theme? {
        all.first { $0.name == name }
    }

    /// For a dark background: cyan bars, yellow warnings, red problems.
    package static let dark = Theme(
        name: "dark", summary: "for dark backgrounds, the default", assumedBackground: 0, assumedForeground: 7
    ) { style in
        switch style {
        case .normal: Appearance()
        case .header: Appearance(.black, on: .cyan)
        case .title: Appearance(nil, [.bold])
        case .focusedTitle: Appearance(.cyan, [.bold])
        case .label: Appearance(nil, [.bold])
        case .selection: Appearance(.black, on: .cyan)
        case .warning: Appearance(.yellow, [.bold])
        case .critical: Appearance(.red, [.bold])
        case .dim: Appearance(nil, [.dim])
        case .accent: Appearance(.cyan)
        case .graph: Appearance(.green)
        case .queue: Appearance(.magenta)
        }
    }

    /// For a light background: dark blue bars, brown warnings, dark red problems; no yellow or cyan text, which
    /// white backgrounds wash out.
    package static let light = Theme(
        name: "light", summary: "for light backgrounds", assumedBackground: 15, assumedForeground: 0
    ) { style in
        let blue = TerminalColor(base: 4, extended: 25)
        switch style {
        case .normal: return Appearance()
        case .header: return Appearance(.white, on: blue)
        case .title: return Appearance(nil, [.bold])
        case .focusedTitle: return Appearance(blue, [.bold])
        case .label: return Appearance(nil, [.bold])
        case .selection: return Appearance(TerminalColor(base: 7, bright: true), on: blue)
        case .warning: return Appearance(TerminalColor(base: 5, extended: 130), [.bold])
        case .critical: return Appearance(TerminalColor(base: 1, extended: 124), [.bold])
        case .dim: return Appearance(nil, [.dim])
        case .accent: return Appearance(blue)
        case .graph: return Appearance(TerminalColor(base: 4, extended: 28))
        case .queue: return Appearance(TerminalColor(base: 5, extended: 90))
        }
    }

    /// Without colours (`NO_COLOR`, `--no-color`, or a terminal without them): attributes alone.
    package static func monochrome(_ style: Style) -> Appearance.Attributes {
        switch style {
        case .normal, .accent, .graph, .queue: []
        case .header: [.reverse, .bold]
        case .title, .label, .warning: [.bold]
        case .focusedTitle, .critical: [.bold, .underline]
        case .selection: [.reverse]
        case .dim: [.dim]
        }
    }
}
