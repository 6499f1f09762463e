import PonyTopUI

extension AppState {
    /// Presses a key as the live session does: the frame before it is drawn at the state's terminal size, so that
    /// the key acts on what that frame shows (its columns, how far help and details scroll).
    ///
    /// - Returns: What the session must do beyond the state change.
    @discardableResult
    mutating func press(_ key: Key, on dashboard: Dashboard) -> Effect {
        _ = draw(dashboard, with: Renderer(glyphs: .unicode))
        return handle(key, dashboard: dashboard)
    }
}
