/// Draws a series of values as a one-line graph of block characters.
package enum Sparkline {
    /// The last `width` values as levels of `glyphs`, scaled to their maximum, right-aligned (blank on the left
    /// while the history is short). Zero is a blank; any non-zero value shows at least the lowest level.
    ///
    /// - Parameters:
    ///   - values: The series, oldest first.
    ///   - width: The number of cells.
    ///   - glyphs: Which characters to draw with.
    /// - Returns: Exactly `width` characters.
    package static func render(_ values: [Double], width: Int, glyphs: GlyphSet) -> [Unicode.Scalar] {
        guard width > 0 else { return [] }
        let shown = values.suffix(width)
        let peak = shown.max() ?? 0
        var result = [Unicode.Scalar](repeating: " ", count: width - shown.count)
        let top = glyphs.levels.count - 1
        for value in shown {
            if peak <= 0 || value <= 0 {
                result.append(" ")
            } else {
                let level = Int((value / peak * Double(top)).rounded())
                result.append(glyphs.levels[min(top, max(0, level))])
            }
        }
        return result
    }
}
