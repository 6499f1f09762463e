import NIOCore
import PonyExpressWire

/// Splits the byte stream into ``Frame``s. The length field is checked against ``Frame/maximumLength`` as soon as
/// it arrives, so an oversized frame ends the connection before any of its body is buffered.
///
/// NIOExtras' `LengthFieldBasedFrameDecoder` accepts any length up to `Int32.max` and has no such limit.
struct FrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = Frame

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let header = buffer.getBytes(at: buffer.readerIndex, length: Frame.headerLength) else {
            return .needMoreData
        }
        let length = try Frame.bodyLength(header)
        guard buffer.readableBytes >= Frame.headerLength + length else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: Frame.headerLength)
        // The payload is copied once, from the buffer's own bytes: a snapshot frame is a megabyte at scale.
        let frame = try Frame(body: buffer.readableBytesView.prefix(length))
        buffer.moveReaderIndex(forwardBy: length)
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// Writes ``Frame``s with their length field.
struct FrameEncoder: MessageToByteEncoder {
    typealias OutboundIn = Frame

    /// Writes what ``Frame/bytes`` holds, its ``Frame/prefix`` then the payload, straight into the buffer rather than
    /// through a copy of the payload.
    func encode(data: Frame, out: inout ByteBuffer) throws {
        out.reserveCapacity(minimumWritableBytes: Frame.headerLength + 1 + data.payload.count)
        out.writeBytes(data.prefix)
        out.writeBytes(data.payload)
    }
}
