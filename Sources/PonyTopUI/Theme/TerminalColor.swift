/// A colour as a terminal can show it, at each colour depth: one of the 8 ANSI colours, one of the 16 (the 8 and
/// their bright variants), and an index into the 256-colour palette.
package struct TerminalColor: Equatable, Sendable {
    /// How many colours a terminal has.
    package enum Depth: Int, Sendable, CaseIterable {
        /// The 8 ANSI colours.
        case eight = 8
        /// The 8 and their bright variants.
        case sixteen = 16
        /// The xterm 256-colour palette.
        case extended = 256

        /// The depth of a terminal with `count` colours (ncurses' `COLORS`).
        package init(colors count: Int) {
            self = count >= 256 ? .extended : count >= 16 ? .sixteen : .eight
        }
    }

    /// The ANSI colour (0 black, 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white) on 8-colour terminals.
    package let base: Int
    /// Whether 16-colour terminals show the bright variant (`base + 8`).
    package let bright: Bool
    /// The index in the 256-colour palette.
    package let extended: Int

    /// Creates a colour.
    package init(base: Int, bright: Bool = false, extended: Int? = nil) {
        self.base = base
        self.bright = bright
        self.extended = extended ?? (bright ? base + 8 : base)
    }

    /// The palette index to use at a depth.
    package func index(at depth: Depth) -> Int {
        switch depth {
        case .eight: base
        case .sixteen: bright ? base + 8 : base
        case .extended: extended
        }
    }

    /// The ANSI colours by name.
    package static let black = TerminalColor(base: 0)
    package static let red = TerminalColor(base: 1)
    package static let green = TerminalColor(base: 2)
    package static let yellow = TerminalColor(base: 3)
    package static let blue = TerminalColor(base: 4)
    package static let magenta = TerminalColor(base: 5)
    package static let cyan = TerminalColor(base: 6)
    package static let white = TerminalColor(base: 7)

    /// The red, green and blue of a palette index as xterm shows it by default, for contrast checks.
    package static func rgb(ofIndex index: Int) -> (red: Int, green: Int, blue: Int) {
        let system = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
            (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        if index < 16 { return system[max(0, index)] }
        if index < 232 {
            let cube = [0, 95, 135, 175, 215, 255]
            let offset = index - 16
            return (cube[offset / 36], cube[offset / 6 % 6], cube[offset % 6])
        }
        let level = 8 + 10 * (min(index, 255) - 232)
        return (level, level, level)
    }
}
