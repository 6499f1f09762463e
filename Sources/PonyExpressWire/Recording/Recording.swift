import Glibc

/// A recording: `PONYREC2\n`, the hello of the recorded app (or scenario), then snapshot frames, each exactly as it
/// crossed the wire and followed by the CRC-32 of its body (kind and payload), four bytes big-endian. A recording
/// from before checksums (`PONYREC\n`) is read as well, without them.
///
/// A recording is read frame by frame: opening one checks the magic bytes first, then reads the hello and only the
/// length field and kind of every later frame, to index them; a snapshot is read when it is asked for. Memory is
/// bounded by the largest frame, not by the file. What is wrong after the last good frame (the file was cut short by
/// a recorder that was killed, or a length field is damaged) is kept in ``damage``: a viewer may play the frames
/// before it, a report must not pass on it.
package final class Recording {
    /// The first bytes of every recording.
    package static let magic: [UInt8] = Array("PONYREC2\n".utf8)
    /// The first bytes of a recording written before frames carried checksums.
    package static let uncheckedMagic: [UInt8] = Array("PONYREC\n".utf8)
    /// The length of the checksum after each frame of a ``magic`` recording.
    static let checksumLength = 4

    /// Who was recorded.
    package let hello: Hello
    /// The file's size in bytes.
    package let size: Int
    /// What is wrong after the last whole, well-formed frame, in one line; `nil` for a complete recording.
    package let damage: WireError?
    /// Where each snapshot frame's body (kind byte and payload) starts, and its length.
    private let index: [(offset: Int, length: Int)]
    private let storage: Storage
    /// Whether each frame is followed by its checksum.
    private let isChecksummed: Bool

    /// The number of snapshot frames that can be read.
    package var frameCount: Int { index.count }

    /// Opens a recording file. Only regular files are read: a FIFO, a device such as `/dev/zero` or a directory
    /// is refused before anything is read from it.
    ///
    /// - Parameter path: The file.
    /// - Throws: ``WireError`` when the file cannot be opened, is not a regular file or not a recording, or its
    ///   hello is damaged.
    package convenience init(path: String) throws {
        // Non-blocking, so that opening a FIFO does not wait for a writer; regular files ignore the flag.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw WireError.refused("cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw WireError.refused("cannot read '\(path)': \(reason)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw WireError.refused(
                "'\(path)' is \(Self.kind(of: status.st_mode)), not a regular file; a recording is a file made with "
                    + "--record")
        }
        try self.init(storage: .file(fd), size: Int(status.st_size))
    }

    /// Reads a recording held in memory.
    ///
    /// - Parameter bytes: The whole recording.
    /// - Throws: ``WireError`` when it is not a recording or its hello is damaged.
    package convenience init(bytes: [UInt8]) throws {
        try self.init(storage: .bytes(bytes), size: bytes.count)
    }

    private init(storage: Storage, size: Int) throws {
        self.storage = storage
        self.size = size
        let magic = (try? storage.read(at: 0, count: Self.magic.count)) ?? []
        let checksummed: Bool
        if magic == Self.magic {
            checksummed = true
        } else if Array(magic.prefix(Self.uncheckedMagic.count)) == Self.uncheckedMagic {
            checksummed = false
        } else {
            throw WireError.malformed("not a ponytop recording (it does not start with PONYREC)")
        }
        isChecksummed = checksummed
        let trailer = checksummed ? Self.checksumLength : 0
        var position = checksummed ? Self.magic.count : Self.uncheckedMagic.count
        var index: [(offset: Int, length: Int)] = []
        var damage: WireError?
        var hello: Hello?
        while position < size {
            let number = index.count + (hello == nil ? 0 : 1)
            guard size - position >= Frame.headerLength else {
                damage = Self.cutShort(after: number, size: size)
                break
            }
            let length: Int
            do {
                length = try Frame.bodyLength(try storage.read(at: position, count: Frame.headerLength))
            } catch {
                damage = .damagedRecording(
                    "damaged length at byte \(Self.grouped(position)) (after frame \(number)): \(error)")
                break
            }
            let body = position + Frame.headerLength
            guard size - body >= length + trailer else {
                damage = Self.cutShort(after: number, size: size)
                break
            }
            if hello == nil {
                let frame = try Frame(
                    body: try Self.read(storage, checksummed: checksummed, at: body, length: length, number: 1))
                hello = try Hello.read(frame).hello
            } else {
                let kind = try storage.read(at: body, count: 1)[0]
                guard kind == Frame.Kind.snapshot.rawValue else {
                    damage = .damagedRecording(
                        "damaged frame at byte \(Self.grouped(position)) (frame \(number + 1)): kind \(kind) where a "
                            + "snapshot (\(Frame.Kind.snapshot.rawValue)) belongs")
                    break
                }
                index.append((body, length))
            }
            position = body + length + trailer
        }
        guard let hello else {
            throw damage ?? WireError.malformed("the recording ends before its first frame")
        }
        self.hello = hello
        self.index = index
        self.damage = damage
    }

    deinit {
        if case .file(let fd) = storage { close(fd) }
    }

    /// A frame as a recording keeps it: its bytes (header, kind and payload), then the CRC-32 of its body.
    ///
    /// - Parameter frame: A whole frame, as ``Frame/bytes`` writes it.
    package static func checksummed(_ frame: [UInt8]) -> [UInt8] {
        frame + CRC32.bytes(of: frame[Frame.headerLength...])
    }

    /// Reads one snapshot frame, undecoded.
    ///
    /// - Throws: ``WireError/damagedRecording(_:)`` when the frame's checksum does not match its bytes.
    package func frame(at number: Int) throws -> Frame {
        let (offset, length) = index[number]
        return try Frame(
            body: try Self.read(storage, checksummed: isChecksummed, at: offset, length: length, number: number + 2))
    }

    /// Reads a frame's body and, in a checksummed recording, checks it against the checksum after it.
    private static func read(
        _ storage: Storage, checksummed: Bool, at offset: Int, length: Int, number: Int
    ) throws -> [UInt8] {
        let body = try storage.read(at: offset, count: length)
        guard checksummed else { return body }
        let stored = try storage.read(at: offset + length, count: Self.checksumLength)
        guard stored == CRC32.bytes(of: body) else {
            throw WireError.damagedRecording(
                "damaged frame \(number) at byte \(grouped(offset - Frame.headerLength)): its checksum does not "
                    + "match its bytes")
        }
        return body
    }

    /// Reads and decodes one snapshot frame.
    ///
    /// - Throws: ``WireError/damagedRecording(_:)`` naming the frame and its byte when it cannot be decoded.
    package func snapshot(at number: Int) throws -> SnapshotFrame {
        do {
            return try SnapshotFrame.read(try frame(at: number))
        } catch let error as WireError {
            if case .damagedRecording = error { throw error }
            throw WireError.damagedRecording(
                "damaged frame \(number + 2) at byte \(Self.grouped(index[number].offset - Frame.headerLength)): "
                    + "\(error)")
        } catch {
            throw WireError.damagedRecording(
                "damaged frame \(number + 2) at byte \(Self.grouped(index[number].offset - Frame.headerLength)): "
                    + "\(error)")
        }
    }

    /// Decodes every frame, one at a time, and says what is wrong with the recording: ``damage``, or the first
    /// frame that cannot be decoded; `nil` when all is well. What a report runs before it judges a recording.
    package func firstProblem() -> WireError? {
        for number in index.indices {
            do {
                _ = try snapshot(at: number)
            } catch let error as WireError {
                return error
            } catch {
                return .damagedRecording("\(error)")
            }
        }
        return damage
    }

    private static func cutShort(after frames: Int, size: Int) -> WireError {
        .damagedRecording("cut short after frame \(frames) of a file of \(grouped(size)) bytes")
    }

    /// A count with thousands separators, as people read it: 60,732.
    package static func grouped(_ value: Int) -> String {
        var digits = String(value)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Where the bytes are.
    private enum Storage {
        case file(Int32)
        case bytes([UInt8])

        /// `count` bytes at `offset`.
        func read(at offset: Int, count: Int) throws -> [UInt8] {
            switch self {
            case .bytes(let bytes):
                guard offset >= 0, count >= 0, offset + count <= bytes.count else {
                    throw WireError.damagedRecording("a read past the end of the recording at byte \(offset)")
                }
                return Array(bytes[offset..<offset + count])
            case .file(let fd):
                var buffer = [UInt8](repeating: 0, count: count)
                var done = 0
                while done < count {
                    let read = buffer[done...].withUnsafeMutableBytes {
                        pread(fd, $0.baseAddress, $0.count, off_t(offset + done))
                    }
                    if read < 0, errno == EINTR || errno == EAGAIN { continue }
                    guard read > 0 else {
                        let reason = read == 0 ? "the file ended" : String(cString: strerror(errno))
                        throw WireError.damagedRecording(
                            "cannot read \(count) bytes at byte \(Recording.grouped(offset)): \(reason)")
                    }
                    done += read
                }
                return buffer
            }
        }
    }
}
