/// A key press, as the terminal decodes it.
package enum Key: Hashable, Sendable {
    /// A printable character.
    case character(Character)
    /// Arrow keys.
    case up, down, left, right
    /// Paging keys.
    case pageUp, pageDown, home, end
    /// Enter or Return.
    case enter
    /// Escape.
    case escape
    /// Backspace or Delete-left.
    case backspace
    /// Tab and Shift-Tab.
    case tab, backTab
    /// A function key, `F1` is `function(1)`.
    case function(Int)
}
