/// Shortens a source location from the module side, so that what identifies it, the file name and the line, stays
/// whole: `PonyScenarios/Demo/BlockObserver.swift:10` becomes `PonyScenarios/…/BlockObserver.swift:10`, then
/// `…/BlockObserver.swift:10`, then `BlockObserver.swift:10`; a module name is kept whole or left out, never cut, so
/// that rows of one column read alike; only a file name longer than the column is cut, and then from its start,
/// keeping `.swift:10`.
enum SitePath {
    /// `site` in at most `width` columns.
    ///
    /// - Parameters:
    ///   - site: The location, `Module/Folder/File.swift:10`.
    ///   - width: The columns it may take.
    ///   - mark: What stands for the part left out: a glyph set's ``GlyphSet/pathEllipsis``.
    static func fit(_ site: String, width: Int, mark: String) -> String {
        let scalars = Array(site.unicodeScalars)
        guard scalars.count > width else { return site }
        guard width > 0 else { return "" }
        let markWidth = mark.unicodeScalars.count
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
            if fileWidth + markWidth + 1 <= width { return mark + "/" + file }
        }
        if fileWidth <= width { return file }
        guard width > markWidth else { return String(String.UnicodeScalarView(file.unicodeScalars.suffix(width))) }
        return mark + String(String.UnicodeScalarView(file.unicodeScalars.suffix(width - markWidth)))
    }
}
