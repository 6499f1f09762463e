import PonyExpressMonitor
import PonyExpressWire

/// What the wire decoder promises for any bytes at all, checked on one input: each reader returns a value or throws
/// one ``WireError`` whose description is a single line. Anything else traps, which libFuzzer reports as a crash.
///
/// The first byte picks the reader (a frame stream, a hello, a request, a snapshot, a recording), so that one
/// corpus covers them all.
enum WireDecoderProbe {
    @discardableResult
    static func check(_ bytes: [UInt8]) -> String {
        guard let selector = bytes.first else { return "empty" }
        let input = Array(bytes.dropFirst())
        do {
            switch selector % 5 {
            case 0:
                var position = 0
                var frames = 0
                while input.count - position >= Frame.headerLength {
                    let length = try Frame.bodyLength(input[position..<position + Frame.headerLength])
                    guard input.count - position - Frame.headerLength >= length else { break }
                    let body = input[(position + Frame.headerLength)..<(position + Frame.headerLength + length)]
                    let frame = try Frame(body: body)
                    switch frame.kind {
                    case .hello: _ = try Hello.read(frame)
                    case .snapshot: _ = try SnapshotFrame.read(frame)
                    case .request: _ = try WireDecoder.decode(Request.self, from: frame.payload)
                    case .error: _ = String(decoding: frame.payload, as: UTF8.self)
                    }
                    position += Frame.headerLength + length
                    frames += 1
                }
                return "\(frames) frames"
            case 1:
                return "hello \(try WireDecoder.decode(Hello.self, from: input).processName)"
            case 2:
                return "request \(try WireDecoder.decode(Request.self, from: input))"
            case 3:
                let snapshot = try WireDecoder.decode(SnapshotFrame.self, from: input).snapshot
                // Reading what a viewer reads must not trap either.
                for stats in snapshot.mailTypes { _ = snapshot.recipients(of: stats.mailType).count }
                return "snapshot of \(snapshot.mailTypes.count) mail types"
            default:
                let recording = try Recording(bytes: input)
                for index in 0..<recording.frameCount { _ = try recording.snapshot(at: index) }
                return "recording of \(recording.frameCount) frames" + (recording.damage.map { ", \($0)" } ?? "")
            }
        } catch let error as WireError {
            let message = error.description
            precondition(!message.contains("\n"), "a multi-line error: \(message)")
            return message
        } catch {
            preconditionFailure("an error that is not a WireError: \(error)")
        }
    }
}

/// libFuzzer's entry point: called once per generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    WireDecoderProbe.check(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
