import PonyExpressMonitor
import PonyTopUI
import Testing

@Suite("The config file: read with the scenario reader, every problem one line with file:line")
struct ConfigTests {
    func parse(_ text: String) throws(ConfigError) -> PonyTopConfig {
        try PonyTopConfig.parse(Array(text.utf8), fileName: "config.json")
    }

    func problems(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.lines
        }
    }

    @Test("the file --write-config writes reads back as the defaults")
    func defaultFileIsTheDefaults() throws {
        #expect(try parse(PonyTopConfig.defaultFileText) == PonyTopConfig())
        for threshold in ConfigThreshold.all {
            #expect(PonyTopConfig.defaultFileText.contains("\"\(threshold.name)\": "))
        }
    }

    @Test("theme, refresh, thresholds and rules are read, with comments and trailing commas")
    func readsEverySetting() throws {
        let config = try parse(
            """
            // mine
            {
                "theme": "light",  # for my white terminal
                "refresh": 2,
                "thresholds": { "growingRegistrations.window": 30, "oversubscribed.threshold": 5, },
                "rules": { "highPruneRate": false, "slowRecipient": true },
            }
            """)
        #expect(config.theme == .light)
        #expect(config.refresh == 2)
        #expect(config.monitor.leakWindow == 30)
        #expect(config.monitor.oversubscriptionThreshold == 5)
        #expect(config.monitor.pruneRateThreshold == MonitorSettings().pruneRateThreshold)
        #expect(config.disabledFindings == [.highPruneRate])
        #expect(!config.reports(.highPruneRate) && config.reports(.slowRecipient))
    }

    @Test("an empty object is the defaults")
    func emptyObject() throws {
        #expect(try parse("{}") == PonyTopConfig())
    }

    @Test("every problem at once, in file order, each naming file, line and what is valid")
    func everyProblemAtOnce() {
        let lines = problems(
            """
            {
                "theme": "drak",
                "refresh": 0,
                "thresholds": { "growingRegistrations.window": 1, "bogus": 2, "growingRegistrations.minimumGrowth": 2.5 },
                "rules": { "growingRegistrations": 0, "nope": true },
                "colour": "red"
            }
            """)
        #expect(lines.count == 8, "\(lines)")
        let expected = [
            "config.json:2:14: unknown theme; expected a theme name, found \"drak\" (valid: dark, light)",
            "config.json:3:16: bad \"refresh\"; expected seconds from 0.05 to 60, found 0",
            "config.json:4:52: \"growingRegistrations.window\" out of range; expected whole seconds from 4 to 3600, found 1",
            "config.json:4:55: unknown field in thresholds",
            "config.json:4:105: wrong type for \"growingRegistrations.minimumGrowth\"; expected a whole number, found 2.5",
            "config.json:5:40: wrong type for rule \"growingRegistrations\"; expected true or false, found 0",
            "config.json:5:43: unknown field in rules",
            "config.json:6:5: unknown field in the config file",
        ]
        for (line, start) in zip(lines, expected) {
            #expect(line.hasPrefix(start), "\(line)")
            #expect(!line.contains("\n"))
        }
    }

    @Test("syntax errors are the scenario reader's, naming the config")
    func syntaxError() {
        #expect(
            problems("") == [
                "config.json:1:1: file is empty; expected a JSON object describing a config, found nothing"
            ])
        #expect(problems("{ \"theme\" \"dark\" }").first?.hasPrefix("config.json:1:11: syntax error") == true)
        #expect(
            problems("[]") == [
                "config.json:1:1: wrong type for the config file; expected an object {...}, found an array"
            ])
    }

    @Test("the default path follows XDG_CONFIG_HOME, else HOME")
    func defaultPath() {
        #expect(
            PonyTopConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/ponytop/config.json")
        #expect(PonyTopConfig.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/ponytop/config.json")
        #expect(
            PonyTopConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"])
                == "/h/.config/ponytop/config.json", "the XDG spec ignores relative paths")
        #expect(PonyTopConfig.defaultPath(environment: [:]) == nil)
    }
}
