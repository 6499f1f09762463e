import Foundation

/// The Swift examples of README.md and the DocC articles, and the code of the tests that run them, so that a test
/// can prove that every example is code it compiles and runs, verbatim.
///
/// A test holds an example between two comment lines, `// README begin` and `// README end` (or `// Example begin`
/// and `// Example end`), indented as the code around them; the region is compared with the example's block with
/// that indentation removed. The block's leading `import` lines (and the blank line after them) are left out, since
/// imports live at the top of a test file. An example that mixes declarations with statements, or members with
/// calls, is held by consecutive regions of one file, read as one: say a type at file scope, then the statements
/// inside a test.
///
/// ```swift
/// @Test func theExampleRuns() {
///     // README begin
///     let office = PostOffice()
///     office.post(CartUpdated(items: 3))
///     // README end
/// }
/// ```
package enum DocumentedCode {
    /// The package's root folder.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One fenced code block of a document.
    package struct Block: Sendable, CustomStringConvertible {
        /// The document, relative to the package root.
        package let document: String
        /// The line of the opening fence, counted from 1.
        package let line: Int
        /// The block's lines, with the fence's indentation removed.
        package let lines: [String]

        package init(document: String, line: Int, lines: [String]) {
            self.document = document
            self.line = line
            self.lines = lines
        }

        /// The lines a test must hold: without the leading imports and the blank lines after them.
        package var code: [String] {
            Array(lines.drop { $0.hasPrefix("import ") }.drop { $0.isEmpty })
        }

        package var description: String { "\(document):\(line)" }
    }

    /// The documents whose examples must be compiled: README.md and every DocC article in `Sources`.
    package static func documents() throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        let articles = (FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? [])
            .filter { $0.contains(".docc/") && $0.hasSuffix(".md") }
            .map { "Sources/" + $0 }
        return ["README.md"] + articles.sorted()
    }

    /// The code blocks fenced with `language` (such as `swift`) in a document, nested ones (in a list item) included.
    ///
    /// - Parameters:
    ///   - language: The fence's language; `""` for blocks without one.
    ///   - document: The document, relative to the package root.
    package static func blocks(_ language: String, in document: String) throws -> [Block] {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        var blocks: [Block] = []
        var open: (line: Int, indent: Int, language: String, lines: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if var block = open {
                if trimmed == "```" && indent == block.indent {
                    if block.language == language {
                        blocks.append(Block(document: document, line: block.line, lines: block.lines))
                    }
                    open = nil
                } else {
                    block.lines.append(String(line.dropFirst(min(indent, block.indent))))
                    open = block
                }
            } else if trimmed.hasPrefix("```") {
                open = (index + 1, indent, String(trimmed.dropFirst(3)), [])
            }
        }
        return blocks
    }

    /// The regions of a test source between `// README begin` (or `// Example begin`) and the next `// README end`
    /// (or `// Example end`), each with the begin line's indentation removed, in the order they appear.
    package static func regions(inSource text: String) -> [[String]] {
        var regions: [[String]] = []
        var open: (indent: Int, lines: [String])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if var region = open {
                if trimmed == "// README end" || trimmed == "// Example end" {
                    regions.append(region.lines)
                    open = nil
                } else {
                    region.lines.append(line.isEmpty ? "" : String(line.dropFirst(min(indent, region.indent))))
                    open = region
                }
            } else if trimmed == "// README begin" || trimmed == "// Example begin" {
                open = (indent, [])
            }
        }
        return regions
    }

    /// Every test source's regions, by file relative to the package root.
    package static func testRegions() throws -> [String: [[String]]] {
        let tests = root.appendingPathComponent("Tests")
        var regions: [String: [[String]]] = [:]
        for file in FileManager.default.enumerator(atPath: tests.path)?.allObjects as? [String] ?? []
        where file.hasSuffix(".swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            let found = Self.regions(inSource: text)
            if !found.isEmpty { regions["Tests/" + file] = found }
        }
        return regions
    }

    /// The test file whose consecutive regions, read as one, are the block's code, or `nil` if no test holds it.
    package static func holder(of block: Block, in regions: [String: [[String]]]) -> String? {
        let code = block.code
        for (file, fileRegions) in regions.sorted(by: { $0.key < $1.key }) {
            for start in fileRegions.indices {
                var joined: [String] = []
                for region in fileRegions[start...] {
                    joined += region
                    if joined == code { return file }
                    if joined.count >= code.count || Array(code.prefix(joined.count)) != joined { break }
                }
            }
        }
        return nil
    }
}
