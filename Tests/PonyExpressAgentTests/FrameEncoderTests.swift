import NIOCore
import PonyExpressWire
import Testing

@testable import PonyExpressAgent

/// The agent's channel encoder writes a frame's layout from the one place it is defined, `Frame.prefix`: a socket
/// and a recording carry the same bytes.
@Suite struct FrameEncoderTests {
    @Test(arguments: [0, 1, 255, 256, 70_000])
    func theEncoderWritesWhatFrameBytesHolds(payloadLength: Int) throws {
        let payload = (0..<payloadLength).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for kind in [Frame.Kind.hello, .snapshot, .request, .error] {
            let frame = Frame(kind: kind, payload: payload)
            var buffer = ByteBufferAllocator().buffer(capacity: 0)
            try FrameEncoder().encode(data: frame, out: &buffer)
            let written = buffer.readBytes(length: buffer.readableBytes)
            #expect(written == frame.bytes)
            #expect(try Frame.bodyLength(frame.bytes) == payloadLength + 1)
            #expect(try Frame(body: frame.bytes.dropFirst(Frame.headerLength)) == frame)
        }
    }
}
