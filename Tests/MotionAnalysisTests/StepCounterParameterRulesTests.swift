import Testing
import MotionAnalysis
@testable import MotionCLI

/// `--param` limits live with the parameter definitions: every parameter has a rule, and the
/// defaults are inside them.
@Suite struct StepCounterParameterRulesTests {
    @Test func everyStepParameterHasARule() {
        #expect(Set(StepCounterConfiguration.parameterRules.keys) == Set(StepCounterConfiguration.parameterNames))
        var c = StepCounterConfiguration()
        for name in StepCounterConfiguration.parameterNames {
            // The current value of every parameter is within its own rule (the defaults are accepted).
            #expect(throws: Never.self) { try c.set("\(name)=\(c.value(of: name)!)") }
        }
    }
}
