/// The selected row of a pane: its key, so that the selection follows the row when rows move, and its position, for
/// when the row goes away.
package struct Cursor: Equatable, Sendable {
    /// The selected row's key.
    package var key: String?
    /// Its position when it was selected.
    package var index: Int

    /// Creates a cursor.
    package init(key: String?, index: Int) {
        self.key = key
        self.index = index
    }

    /// The selected position in `keys`: the row's own, or the remembered position when it is gone.
    package func position(in keys: [String]) -> Int? {
        guard !keys.isEmpty else { return nil }
        if let key, let found = keys.firstIndex(of: key) { return found }
        return min(max(0, index), keys.count - 1)
    }
}
