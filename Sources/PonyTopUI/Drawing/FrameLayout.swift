/// What key handling needs to know of the frame on the screen, worked out once, as the renderer draws it: which
/// columns each table shows, and how far the help screen and the details can scroll.
///
/// The session hands each frame's layout to ``AppState`` (``AppState/draw(_:with:)``), and the next key reads it:
/// a key never lays out or draws a frame of its own to learn what the one on the screen shows.
package struct FrameLayout: Equatable, Sendable {
    /// The columns each table was drawn with, left to right: what a narrow screen left out is missing, so that
    /// sorting skips columns nobody can see. A pane not drawn has no entry.
    package var shownColumns: [Pane: [Column.ID]] = [:]
    /// How far the help screen scrolls, to where its last line is at the bottom; 0 when help was not drawn.
    package var helpScrollLimit = 0
    /// How far the details drawn scroll, to where their last line is at the bottom; 0 when none were drawn.
    package var detailsScrollLimit = 0

    package init() {}
}
