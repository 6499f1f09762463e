/// Shortens a source location from the module side, so that what identifies it, the file name and the line, stays
/// whole: `PonyScenarios/Demo/BlockObserver.swift:10` becomes `PonyScenarios/…/BlockObserver.swift:10`, then
/// `…/BlockObserver.swift:10`, then `BlockObserver.swift:10`; a module name is kept whole or left out, never cut, so
/// that rows of one column read alike; only a file name longer than the column is cut, and then from its start,
/// keeping `.swift:10`.
enum SitePath {
    /// `site` in at most `width` columns.
    static func fit(_ site: String, width: Int, ellipsis: Unicode.Scalar) -> String {
        let scalars = Array(site.unicodeScalars)
        guard scalars.count > width else { return site }
        guard width > 0 else { return "" }
        let mark = String(ellipsis)
        let slash = scalars.lastIndex(of: "/")
        let file = slash.map { String(String.UnicodeScalarView(scalars[($0 + 1)...])) } ?? site
        let fileWidth = file.unicodeScalars.count
        if let slash {
            let directory = Array(scalars[..<slash])
            let first = directory.firstIndex(of: "/").map { Array(directory[..<$0]) } ?? directory
            if first.count < directory.count {
                let candidate = String(String.UnicodeScalarView(first)) + "/" + mark + "/" + file
                if candidate.unicodeScalars.count <= width { return candidate }
            }
            if fileWidth + 2 <= width { return mark + "/" + file }
        }
        if fileWidth <= width { return file }
        return mark + String(String.UnicodeScalarView(file.unicodeScalars.suffix(width - 1)))
    }
}
