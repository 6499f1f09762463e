import CNcurses
import Glibc
import PonyTopUI

/// The ncurses terminal: presents finished grids and reads keys. The only file that talks to ncurses; every call
/// happens on the thread that opened it.
final class Terminal {
    /// Why the terminal could not be used, as one line for the user.
    struct OpenError: Error, CustomStringConvertible {
        let description: String
    }

    private let screen: OpaquePointer
    private let window: OpaquePointer
    /// Glyphs the locale can show.
    let glyphs: GlyphSet
    private var attributes: [attr_t]
    private var wide: [wchar_t] = []
    private var isOpen = true

    /// Checks that stdin and stdout are a usable terminal, sets up the locale and starts curses on it.
    ///
    /// - Parameters:
    ///   - color: Whether to use colours (when the terminal has them).
    ///   - ascii: Whether to draw with ASCII only.
    ///   - theme: The colours of each role.
    /// - Throws: ``OpenError`` with a one-line explanation, before anything was written to the terminal.
    init(color: Bool, ascii: Bool, theme: Theme) throws(OpenError) {
        guard isatty(STDOUT_FILENO) == 1 else {
            throw OpenError(
                description: "stdout is not a terminal; for a headless summary use --report text or --report json")
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw OpenError(
                description: "stdin is not a terminal; for a headless summary use --report text or --report json")
        }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty else {
            throw OpenError(description: "TERM is not set; set it to your terminal's type (for example xterm-256color)")
        }
        guard term != "dumb" else {
            throw OpenError(
                description:
                    "TERM=dumb cannot draw a full-screen view; use a real terminal type (for example xterm-256color) or --report text"
            )
        }
        // The user's locale says what the terminal shows: when it is not UTF-8 (LANG=C), UTF-8 boxes would be
        // garbage there, so ponytop stays in that locale and draws with ASCII.
        setlocale(LC_ALL, "")
        let unicode = !ascii && Self.localeIsUTF8()
        guard let screen = newterm(nil, ponytop_stdout(), ponytop_stdin()) else {
            throw OpenError(
                description:
                    "unknown terminal type TERM=\(term); use one from the terminfo database (for example xterm-256color)"
            )
        }
        self.screen = screen
        window = OpaquePointer(ponytop_stdscr())
        glyphs = unicode ? .unicode : .ascii
        cbreak()
        noecho()
        nonl()
        keypad(UnsafeMutablePointer(window), true)
        curs_set(0)
        set_escdelay(25)
        wtimeout(UnsafeMutablePointer(window), 100)
        attributes = Self.makeAttributes(theme: color && has_colors() ? theme : nil)
    }

    private static func localeIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(ponytop_codeset()) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// Attributes by ``Style``: the theme's colour pairs (at the terminal's colour depth) on the terminal's own
    /// background, or attributes alone without a theme.
    private static func makeAttributes(theme: Theme?) -> [attr_t] {
        func attributes(_ set: Appearance.Attributes) -> attr_t {
            var result = ponytop_a_normal()
            if set.contains(.bold) { result |= ponytop_a_bold() }
            if set.contains(.dim) { result |= ponytop_a_dim() }
            if set.contains(.underline) { result |= ponytop_a_underline() }
            if set.contains(.reverse) { result |= ponytop_a_reverse() }
            return result
        }
        guard let theme else { return Style.allCases.map { attributes(Theme.monochrome($0)) } }
        start_color()
        use_default_colors()
        let depth = TerminalColor.Depth(colors: Int(ponytop_colors()))
        return Style.allCases.map { style in
            let appearance = theme[style]
            guard appearance.foreground != nil || appearance.background != nil else {
                return attributes(appearance.attributes)
            }
            let pair = Int16(style.rawValue) + 1
            init_pair(
                pair, Int16(appearance.foreground?.index(at: depth) ?? -1),
                Int16(appearance.background?.index(at: depth) ?? -1))
            return attr_t(COLOR_PAIR(Int32(pair))) | attributes(appearance.attributes)
        }
    }

    /// The terminal's size in cells.
    var size: (width: Int, height: Int) {
        var rows: Int32 = 0
        var columns: Int32 = 0
        ponytop_getmaxyx(UnsafeMutablePointer(window), &rows, &columns)
        return (Int(columns), Int(rows))
    }

    /// Bytes that put the screen back after a crash: leave the alternate screen, show the cursor, reset attributes.
    var resetSequence: [UInt8] {
        ["rmcup", "cnorm", "sgr0", "rmkx"].flatMap { name -> [UInt8] in
            guard let value = tigetstr(name), Int(bitPattern: value) != -1 else { return [] }
            return Array(String(cString: value).utf8)
        }
    }

    /// Sets how long ``readKey()`` waits for a key.
    func setKeyTimeout(milliseconds: Int) {
        wtimeout(UnsafeMutablePointer(window), Int32(max(0, milliseconds)))
    }

    /// Waits for a key until the timeout or a signal.
    ///
    /// - Returns: The key, or `nil` when none came (or it has no meaning here).
    func readKey() -> Key? {
        var character: wint_t = 0
        let result = wget_wch(UnsafeMutablePointer(window), &character)
        if result == KEY_CODE_YES { return Self.decode(function: Int32(character)) }
        guard result == OK else { return nil }
        switch character {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(UInt32(character)) else { return nil }
            return .character(Character(scalar))
        }
    }

    private static func decode(function code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        case KEY_BTAB: .backTab
        case ponytop_key_f(1)...ponytop_key_f(12): .function(Int(code - ponytop_key_f(0)))
        default: nil
        }
    }

    /// Draws a grid: one `mvwaddwstr` per run of same-styled cells, then one refresh that sends only the changes.
    func present(_ grid: Grid) {
        let window = UnsafeMutablePointer<WINDOW>(self.window)
        werase(window)
        for y in 0..<grid.height {
            for run in grid.runs(inRow: y) {
                if run.style == .normal && run.cells.allSatisfy({ $0.scalar == " " }) { continue }
                wide.removeAll(keepingCapacity: true)
                // The terminal draws a wide character over its cell and the next; the next one is skipped.
                for x in run.x..<(run.x + run.cells.count) {
                    if let scalar = grid.presented(x: x, y: y) { wide.append(wchar_t(bitPattern: scalar.value)) }
                }
                wide.append(0)
                ponytop_wattrset(window, attributes[Int(run.style.rawValue)])
                _ = mvwaddwstr(window, Int32(y), Int32(run.x), wide)
            }
        }
        ponytop_wattrset(window, ponytop_a_normal())
        wrefresh(window)
    }

    /// Adopts the terminal's new size after SIGWINCH.
    func adoptNewSize() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        if ponytop_window_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0 {
            resizeterm(rows, columns)
        }
    }

    /// Puts the terminal back for the shell and stops the process (Ctrl-Z); on resume, takes the screen again.
    func suspend() {
        endwin()
        SignalTrap.stopProcess()
        clearok(UnsafeMutablePointer(window), true)
        adoptNewSize()
    }

    /// Puts the terminal back: cursor shown, echo and canonical mode on, alternate screen left.
    func close() {
        guard isOpen else { return }
        isOpen = false
        curs_set(1)
        endwin()
        delscreen(screen)
    }
}
