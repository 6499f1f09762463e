import PonyExpressWire
import Testing

@Suite struct WireCodingTests {
    @Test func placeholder() {}
}
