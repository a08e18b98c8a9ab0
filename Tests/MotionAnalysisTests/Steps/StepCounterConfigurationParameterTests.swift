import MotionAnalysis
import MotionCore
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
            // A nearby valid value that changes it.
            for candidate in [v == 0 ? 0.1 : v * 1.1, v + 1, v * 0.9, v - 1] {
                var attempt = defaults
                if (try? attempt.set(name, to: candidate)) != nil, attempt != defaults { c = attempt; break }
            }
            #expect(c != defaults, "\(name): no nearby valid value changed it")
            for other in StepCounterConfiguration.parameterNames where other != name {
                #expect(c.value(of: other) == defaults.value(of: other), "setting \(name) changed \(other)")
            }
        }
    }

    /// Every parameter has a rule (issue 13: `--param` limits live with the parameter definitions),
    /// and the defaults lie within it.
    @Test func everyParameterHasARuleThatHoldsItsDefault() throws {
        let defaults = StepCounterConfiguration()
        for name in StepCounterConfiguration.parameterNames {
            let rule = try #require(StepCounterConfiguration.rule(forParameter: name), "\(name)")
            #expect(rule.contains(defaults.value(of: name)!), "\(name): default outside \(rule)")
        }
        #expect(StepCounterConfiguration.rule(forParameter: "noSuchThing") == nil)
    }

    @Test func aSetValueIsReadBackInItsUnits() throws {
        var c = StepCounterConfiguration()
        try c.set("maxHold", to: 2.5)
        #expect(c.maxHold == 2_500_000_000 && c.value(of: "maxHold") == 2.5)
        try c.set("minSwing", to: 0.5)
        #expect(c.minSwing == 0.5 && c.value(of: "minSwing") == 0.5)
    }

    @Test(arguments: [
        ("noSuchThing", 1.0, "unknown parameter 'noSuchThing'"),
        ("minAmplitude", -1, "amplitude -1 is out of range (allowed > 0 and <= 1000000 m/s^2)"),
        ("minAmplitude", 1e308, "amplitude 1e+308 is out of range"),
        ("maxHold", 1e300, "duration 1e+300 is out of range (allowed 0...1000000000 s)"),
        ("maxHold", .nan, "duration nan is out of range"),
        ("periodicityWindow", 1e308, "duration 1e+308 is out of range"),
        ("minSwing", 5, "minSwing must be in (0, minAmplitude]"),
        ("maxAmplitudeRatio", 0.5, "ratio 0.5 is out of range"),
        ("weakStepFraction", 1, "weakStepFraction must be in [0, 1)"),
        ("weakStepFraction", 2, "fraction 2 is out of range"),
        ("confirmationSteps", 3, "unknown parameter 'confirmationSteps'"),
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
