import MotionAnalysis
import Testing

/// Parameters by name (`--param NAME=VALUE` of `steps` and `eval steps`).
struct StepCounterConfigurationParameterTests {
    @Test func everyParameterNameCanBeReadAndSetBack() throws {
        let defaults = StepCounterConfiguration()
        for name in StepCounterConfiguration.parameterNames {
            let value = try #require(defaults.value(of: name), "value(of: \(name)) is nil")
            var c = StepCounterConfiguration()
            try c.set(name, to: value)
            #expect(c == defaults, "\(name)=\(value) does not round-trip")
        }
        #expect(defaults.value(of: "noSuchThing") == nil)
    }

    /// Each name reaches its own parameter: changing one changes only its value.
    @Test func eachNameChangesOnlyItsParameter() throws {
        let defaults = StepCounterConfiguration()
        for name in StepCounterConfiguration.parameterNames {
            let v = defaults.value(of: name)!
            var c = defaults
            // A nearby valid value that changes it: booleans toggle, counts and others move a little.
            for candidate in [v == 0 ? 1 : (v == 1 && ["alternatingRuns", "fillMissedSteps"].contains(name) ? 0 : v * 1.1), v + 1, v * 0.9, v - 1] {
                var attempt = defaults
                if (try? attempt.set(name, to: candidate)) != nil, attempt != defaults { c = attempt; break }
            }
            #expect(c != defaults, "\(name): no nearby valid value changed it")
            for other in StepCounterConfiguration.parameterNames where other != name {
                #expect(c.value(of: other) == defaults.value(of: other), "setting \(name) changed \(other)")
            }
        }
    }

    @Test func aSetValueIsReadBackInItsUnits() throws {
        var c = StepCounterConfiguration()
        try c.set("maxHold", to: 2.5)
        #expect(c.maxHold == 2_500_000_000 && c.value(of: "maxHold") == 2.5)
        try c.set("alternatingRuns", to: 0)
        #expect(!c.alternatingRuns)
    }

    @Test(arguments: [
        ("noSuchThing", 1.0, "unknown parameter 'noSuchThing'"),
        ("minAmplitude", -1, "minAmplitude must be > 0"),
        ("maxHold", 1e300, "within ±1e9"),
        ("maxHold", .nan, "within ±1e9"),
        ("confirmationSteps", 99, "confirmationSteps must be in 3...16"),
    ])
    func badAssignmentsAreRefusedAndChangeNothing(name: String, value: Double, message: String) {
        var c = StepCounterConfiguration()
        #expect {
            try c.set(name, to: value)
        } throws: { error in
            "\(error)".contains(message)
        }
        #expect(c == StepCounterConfiguration())
    }
}
