import Foundation
import PonyTopUI
import Testing

@Suite("Themes: every role readable at 8, 16 and 256 colours, and without colour")
struct ThemeTests {
    /// WCAG's contrast ratio of two palette entries, as xterm shows them by default.
    func contrast(_ first: Int, _ second: Int) -> Double {
        func luminance(_ index: Int) -> Double {
            let (red, green, blue) = TerminalColor.rgb(ofIndex: index)
            func channel(_ value: Int) -> Double {
                let scaled = Double(value) / 255
                return scaled <= 0.03928 ? scaled / 12.92 : pow((scaled + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
        }
        let (light, dark) = (max(luminance(first), luminance(second)), min(luminance(first), luminance(second)))
        return (light + 0.05) / (dark + 0.05)
    }

    @Test(
        "text of every role stands out from its background by at least 3:1",
        arguments: Theme.all.map(\.name), TerminalColor.Depth.allCases)
    func contrastAtEveryDepth(themeName: String, depth: TerminalColor.Depth) throws {
        let theme = try #require(Theme.named(themeName))
        for style in Style.allCases {
            let appearance = theme[style]
            let foreground = appearance.foreground?.index(at: depth) ?? theme.assumedForeground
            let background = appearance.background?.index(at: depth) ?? theme.assumedBackground
            let ratio = contrast(foreground, background)
            #expect(ratio >= 3, "\(themeName) \(style) at \(depth.rawValue) colours: \(ratio)")
        }
    }

    @Test("the roles a user must tell apart differ in every theme and without colour")
    func rolesStayDistinct() {
        let apart: [(Style, Style)] = [
            (.normal, .selection), (.normal, .header), (.warning, .critical), (.normal, .dim), (.title, .focusedTitle),
        ]
        for theme in Theme.all {
            for (first, second) in apart {
                #expect(theme[first] != theme[second], "\(theme.name): \(first) and \(second)")
            }
        }
        for (first, second) in apart {
            #expect(Theme.monochrome(first) != Theme.monochrome(second), "no colour: \(first) and \(second)")
        }
    }

    @Test("a role's palette index at each depth: 8 colours are the ANSI ones, 16 adds bright, 256 its own")
    func indexes() {
        let colour = TerminalColor(base: 5, bright: true, extended: 90)
        #expect(colour.index(at: .eight) == 5)
        #expect(colour.index(at: .sixteen) == 13)
        #expect(colour.index(at: .extended) == 90)
        #expect(TerminalColor.Depth(colors: 8) == .eight)
        #expect(TerminalColor.Depth(colors: 88) == .sixteen)
        #expect(TerminalColor.Depth(colors: 256) == .extended)
        #expect(TerminalColor.rgb(ofIndex: 196) == (255, 0, 0))
        #expect(TerminalColor.rgb(ofIndex: 244) == (128, 128, 128))
    }

    /// A swatch of a theme: each role's name drawn in its role, then its colours at 8, 16 and 256 colours and its
    /// attributes, so that a snapshot records what every role looks like.
    static func swatch(_ theme: Theme) -> Grid {
        var grid = Grid(width: 80, height: Style.allCases.count + 1)
        grid.write("ROLE          8 COLOURS   16 COLOURS  256 COLOURS ATTRIBUTES (NO_COLOR)", x: 0, y: 0, style: .label)
        for (row, style) in Style.allCases.enumerated() {
            let appearance = theme[style]
            func colours(_ depth: TerminalColor.Depth) -> String {
                let foreground = appearance.foreground.map { String($0.index(at: depth)) } ?? "-"
                let background = appearance.background.map { String($0.index(at: depth)) } ?? "-"
                return (foreground + " on " + background).padding(toLength: 12, withPad: " ", startingAt: 0)
            }
            let names: [(Appearance.Attributes, String)] = [
                (.bold, "bold"), (.dim, "dim"), (.underline, "underline"), (.reverse, "reverse"),
            ]
            let attributes = names.filter { appearance.attributes.contains($0.0) }.map(\.1).joined(separator: "+")
            let plain = names.filter { Theme.monochrome(style).contains($0.0) }.map(\.1).joined(separator: "+")
            let name = "\(style)".padding(toLength: 14, withPad: " ", startingAt: 0)
            grid.write(name, x: 0, y: row + 1, style: style)
            grid.write(
                colours(.eight) + colours(.sixteen) + colours(.extended) + (attributes.isEmpty ? "-" : attributes)
                    + " (" + (plain.isEmpty ? "-" : plain) + ")", x: 14, y: row + 1)
        }
        return grid
    }

    @Test("each theme's roles, recorded", arguments: Theme.all.map(\.name))
    func swatches(themeName: String) throws {
        let theme = try #require(Theme.named(themeName))
        try SnapshotAssertion.check(Self.swatch(theme), named: "theme-\(themeName)")
    }
}
