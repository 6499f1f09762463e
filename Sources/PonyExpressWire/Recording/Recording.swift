/// A recording: `PONYREC\n`, the hello of the recorded app (or scenario), then snapshot frames, each exactly as it
/// crossed the wire. A file cut short (the recorder was killed mid-write) reads up to its last whole frame.
package struct Recording: Sendable {
    /// The first bytes of every recording.
    package static let magic: [UInt8] = Array("PONYREC\n".utf8)

    /// Who was recorded.
    package let hello: Hello
    /// The wire protocol's minor version the recording was written with.
    package let minorVersion: Int
    /// The snapshot frames, undecoded: a long recording is decoded one frame at a time, as it plays.
    package let frames: [Frame]
    /// Bytes after the last whole frame: a partly written one. Zero for a complete file.
    package let truncatedBytes: Int

    /// Reads a recording.
    ///
    /// - Parameter bytes: The whole file.
    /// - Throws: ``WireError`` when it is not a recording, is of another major version, or a frame is malformed.
    package init(bytes: [UInt8]) throws {
        guard bytes.count >= Self.magic.count, Array(bytes[..<Self.magic.count]) == Self.magic else {
            throw WireError.malformed("not a ponytop recording (it does not start with PONYREC)")
        }
        var position = Self.magic.count
        var frames: [Frame] = []
        while bytes.count - position >= Frame.headerLength {
            let length = try Frame.bodyLength(bytes[position..<position + Frame.headerLength])
            guard bytes.count - position - Frame.headerLength >= length else { break }
            let start = position + Frame.headerLength
            frames.append(try Frame(body: bytes[start..<start + length]))
            position = start + length
        }
        guard let first = frames.first else {
            throw WireError.malformed("the recording ends before its first frame")
        }
        (hello, minorVersion) = try Hello.read(first)
        self.frames = Array(frames.dropFirst())
        guard let misplaced = self.frames.first(where: { $0.kind != .snapshot }) else {
            truncatedBytes = bytes.count - position
            return
        }
        throw WireError.unexpectedFrame("a \(misplaced.kind) frame in the middle of a recording")
    }

    /// Decodes one snapshot frame.
    package func snapshot(at index: Int) throws -> SnapshotFrame {
        try SnapshotFrame.read(frames[index])
    }
}
