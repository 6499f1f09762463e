extension String {
    /// The string padded with spaces to `width` columns (never cut).
    func padding(_ width: Int) -> String {
        let length = unicodeScalars.count
        return length >= width ? self : self + String(repeating: " ", count: width - length)
    }

    /// The string right-aligned in `width` columns, spaces before it (never cut).
    func leftPadding(_ width: Int) -> String {
        let length = unicodeScalars.count
        return length >= width ? self : String(repeating: " ", count: width - length) + self
    }
}
