#if !PONY_FUZZING
    import PonyFuzzInput

    /// Without libFuzzer (a plain `swift build`), the target replays input files through the same check, so that a
    /// crash the fuzzer found can be reproduced in a debug build: `swift run PonyScenarioFuzz crash-<hash>`.
    @main
    enum InputReplayer {
        static func main() {
            InputReplay.run(
                CommandLine.arguments.dropFirst(), tool: "PonyScenarioFuzz", checks: "the scenario parser's checks"
            ) { ScenarioParserProbe.check($0) ?? "a valid scenario" }
        }
    }
#endif
