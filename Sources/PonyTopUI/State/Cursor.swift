/// The selected row of a pane: its key, so that the selection follows the row when rows move, and its position, for
/// when the row goes away.
package struct Cursor: Equatable, Sendable {
    /// The selected row's key.
    package var key: String?
    /// Its position when it was selected.
    package var index: Int
    /// Without a key: the first row whose key starts with it, such as a site's rows (`App/Cart.swift:12|`) when
    /// only the site is known.
    package var keyPrefix: String?

    /// Creates a cursor.
    package init(key: String?, index: Int, keyPrefix: String? = nil) {
        self.key = key
        self.index = index
        self.keyPrefix = keyPrefix
    }

    /// The selected position in `keys`: the row's own, else the first whose key starts with ``keyPrefix``, else the
    /// remembered position when it is gone.
    package func position(in keys: [String]) -> Int? {
        guard !keys.isEmpty else { return nil }
        if let key, let found = keys.firstIndex(of: key) { return found }
        if let keyPrefix, let found = keys.firstIndex(where: { $0.hasPrefix(keyPrefix) }) { return found }
        return min(max(0, index), keys.count - 1)
    }
}
