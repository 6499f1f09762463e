import ArgumentParser
import PonyTopUI

/// `--size`: the screen that `--report screen` draws, as COLUMNSxROWS.
struct ScreenSize: Equatable {
    /// What ponytop draws by default: the smallest screen it can draw at all.
    static let standard = ScreenSize(width: Renderer.minimumWidth, height: Renderer.minimumHeight)
    /// The largest accepted: a screen's text stays a few hundred kilobytes.
    static let largest = ScreenSize(width: 500, height: 200)

    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Reads `120x40`, or explains in one line what is valid.
    init(parsing argument: String) throws {
        let parts = argument.split(separator: "x", omittingEmptySubsequences: false)
        let valid =
            "expected COLUMNSxROWS from \(Self.standard.width)x\(Self.standard.height) to "
            + "\(Self.largest.width)x\(Self.largest.height), such as 120x40"
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (Self.standard.width...Self.largest.width).contains(width),
            (Self.standard.height...Self.largest.height).contains(height)
        else { throw ValidationError(valid) }
        self.init(width: width, height: height)
    }
}
