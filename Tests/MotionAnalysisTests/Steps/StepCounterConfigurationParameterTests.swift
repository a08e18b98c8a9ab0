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
