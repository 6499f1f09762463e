import PonyExpressMonitor
import PonyTopUI
import Testing

@Suite("Numbers, durations and sparklines in a few columns")
struct UnitsTests {
    @Test("rates and counts get k/M suffixes")
    func compact() {
        #expect(Units.compact(0) == "0")
        #expect(Units.compact(9.54) == "9.5")
        #expect(Units.compact(99) == "99", "no decimal from 10 on, so that 99 and 433 read alike")
        #expect(Units.compact(42.6) == "43")
        #expect(Units.compact(9.96) == "10")
        #expect(Units.compact(950) == "950")
        #expect(Units.compact(12_345) == "12.3k")
        #expect(Units.compact(4_100_000) == "4.1M")
        #expect(Units.count(9_999) == "9999")
        #expect(Units.count(123_456) == "123k")
    }

    @Test("durations pick their unit")
    func durations() {
        #expect(Units.duration(850) == "850ns")
        #expect(Units.duration(1_500) == "1.5µs")
        #expect(Units.duration(25_000, micro: "u") == "25us")
        #expect(Units.duration(2_500_000) == "2.5ms")
        #expect(Units.duration(2_250_000_000) == "2.25s")
        #expect(Units.clock(83) == "1:23")
        #expect(Units.age(42_000_000_000) == "42s" && Units.age(200_000_000_000) == "3m", "ages: one way everywhere")
        #expect(Units.clock(3_723) == "1:02:03")
    }

    @Test("a sparkline scales to its maximum and keeps the newest values")
    func sparkline() {
        let line = Sparkline.render([0, 1, 2, 4, 8], width: 4, glyphs: .unicode)
        #expect(String(String.UnicodeScalarView(line)) == "▂▃▅█")
        let short = Sparkline.render([3], width: 3, glyphs: .ascii)
        #expect(String(String.UnicodeScalarView(short)) == "  @")
        #expect(Sparkline.render([0, 0], width: 2, glyphs: .unicode) == [" ", " "])
    }
}
